import { createServer } from 'node:http';
import express from 'express';
import { requestClasses } from '../src/http/request-classes';

/**
 * Issue 75's ceiling (docs/benchmark.md): Express alone, no Nest, answering the bytes the sandbox
 * answered to the bench's account list and to one of its payments, with the same status and
 * media type and the request's X-Request-ID echoed; the payment's body parsed as the sandbox's is.
 * The answers come in ANSWERS: `{ "get": { "status", "body" }, "post": { … } }`. With CLASSES=1,
 * Node makes its requests of the app's classes, as the sandbox's (src/http/request-classes.ts):
 * Express as it can be, rather than as it comes.
 */
interface Answer {
  status: number;
  body: string;
}

const answers = JSON.parse(process.env.ANSWERS ?? '') as { get: Answer; post: Answer };
const app = express();
app.set('etag', false);
app.set('x-powered-by', false);
app.use(express.json({ limit: '100kb' }));
const answer =
  ({ status, body }: Answer) =>
  (request: express.Request, response: express.Response) => {
    response.status(status).set('X-Request-ID', request.get('x-request-id')).type('application/json').send(body);
  };
app.get('/v1/accounts', answer(answers.get));
app.post('/v1/payments/sepa-credit-transfers', answer(answers.post));
createServer(process.env.CLASSES === '1' ? requestClasses(app) : {}, app).listen(Number(process.env.PORT));
