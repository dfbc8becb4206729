import * as http from 'node:http';
import * as https from 'node:https';

/** How long a TPP's endpoint has to answer one attempt. */
const TIMEOUT_MS = 5000;

/** What one attempt came to: `HTTP 204`, `TIMEOUT`, a connection error's code, or `REFUSED ADDRESS`. */
export interface Outcome {
  delivered: boolean;
  outcome: string;
}

/** POSTs `body` as JSON; resolves with the outcome, never rejects. */
export function post(url: URL, body: string, headers: Record<string, string>, agent: http.Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    const request = send(
      url,
      {
        method: 'POST',
        agent,
        timeout: TIMEOUT_MS,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
      },
      (response) => {
        response.resume(); // the answer's body is not read, but must be drained for the socket to close
        const status = response.statusCode ?? 0;
        resolve({ delivered: status >= 200 && status < 300, outcome: `HTTP ${status}` });
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    request.on('error', (error: NodeJS.ErrnoException) => {
      // request-filtering-agent refuses an address with a plain Error whose message says so.
      const outcome = error.code ?? (/is not allowed/.test(error.message) ? 'REFUSED ADDRESS' : 'ERROR');
      resolve({ delivered: false, outcome });
    });
    request.end(body);
  });
}
