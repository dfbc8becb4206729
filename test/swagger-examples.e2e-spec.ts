import request from 'supertest';
import type { OpenAPIObject } from '@nestjs/swagger';
import { builtInProfiles } from '../src/profile/load-profile';
import { addDays } from '../src/common/dates';
import { removeDatabase, Sandbox, startSandbox, TODAY } from './support/sandbox';
import { answersAsDocumented, exampleRequests } from './support/swagger-ui-examples';

/**
 * Swagger UI is the front door (docs/development.md, "The served document"): every operation's
 * prefilled example, sent as Try it out sends it after Authorize, answers as its operation
 * documents (answersAsDocumented), in every built-in profile, on the sandbox's first day and 400
 * days on, and in a world of its own (AUTH_MODE=strict, the token got with the token endpoint's own
 * example). The document does not depend on the engine: one engine runs it. The same examples
 * pressed in Chromium: docs-browser.e2e-spec.ts.
 */

/** Sends each example in document order, as a user pressing Execute down the page would; answers `operation status` lines of those that broke the rules. */
async function pressExecuteOnEvery(sandbox: Sandbox, token: (document: OpenAPIObject) => Promise<string>): Promise<string[]> {
  const document = (await request(sandbox.http).get('/docs-json').expect(200)).body as OpenAPIObject;
  const broken: string[] = [];
  const examples = exampleRequests(document, await token(document));
  expect(examples.length).toBeGreaterThan(40);
  for (const example of examples) {
    let call = request(sandbox.http)[example.method.toLowerCase() as 'get'](example.path).set(example.headers);
    if (example.body !== undefined) call = call.send(example.body);
    const { status, text } = await call;
    const fine = answersAsDocumented(example, status);
    if (!fine) broken.push(`${example.operation} ${status} ${text.slice(0, 300)}`);
  }
  return broken;
}

/** The token Swagger UI's user gets by executing the token endpoint's example, then pastes into Authorize. */
async function tokenFromItsExample(sandbox: Sandbox, document: OpenAPIObject): Promise<string> {
  const token = exampleRequests(document, '').find(({ operation }) => operation === 'POST /oauth2/token')!;
  const response = await request(sandbox.http).post(token.path).set(token.headers).send(token.body!).expect(200);
  return response.body.access_token as string;
}

const LATER = addDays(TODAY, 400);

describe.each(builtInProfiles().flatMap((profile) => [TODAY, LATER].map((date) => [profile, date] as const)))(
  'Try it out on every operation of PROFILE=%s, the sandbox on %s',
  (profile, date) => {
    it('answers every prefilled example as its operation documents', async () => {
      const sandbox = await startSandbox({ PROFILE: profile, SANDBOX_DATE: date, SANDBOX_CONTROL: 'true' });
      try {
        expect(await pressExecuteOnEvery(sandbox, async () => 'any-token')).toEqual([]);
      } finally {
        await sandbox.close();
        await removeDatabase(sandbox.database);
      }
    }, 60_000);
  },
);

describe('Try it out in a world of its own (AUTH_MODE=strict)', () => {
  it.each(builtInProfiles())(
    'answers every prefilled example of PROFILE=%s with the token its own example gets',
    async (profile) => {
      const sandbox = await startSandbox({ PROFILE: profile, AUTH_MODE: 'strict', SANDBOX_CONTROL: 'true' });
      try {
        expect(await pressExecuteOnEvery(sandbox, (document) => tokenFromItsExample(sandbox, document))).toEqual([]);
      } finally {
        await sandbox.close();
        await removeDatabase(sandbox.database);
      }
    },
    60_000,
  );
});
