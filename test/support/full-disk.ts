import type { App } from 'supertest/types';
import request from 'supertest';
import { sepaPayment } from './fixtures';
import { CREATED } from './profile';
import { tppError, tppHeaders } from './sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';

/** A payment whose remittance fills pages quickly. */
const bulky = (index: number) =>
  sepaPayment('1.00', {
    remittanceInformationStructured: { reference: `R${index}`.padEnd(35, 'x') },
    endToEndIdentification: `E2E-${index}`,
  });

/** `count` bulky payments posted at once, numbered from `first`. */
export function postPayments(http: App, first: number, count: number): Promise<request.Response[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      request(http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(bulky(first + index)),
    ),
  );
}

/**
 * Rounds of ten concurrent POSTs, as a busy client sends them, until twenty are refused (at most
 * sixty rounds); `beforeRound` may make the disk full again. Every refusal must be the 503 a
 * client may retry on; answers the IDs of the payments acknowledged with 2xx.
 */
export async function postUntilFull(http: App, beforeRound: () => Promise<unknown> = async () => undefined): Promise<string[]> {
  const acknowledged: string[] = [];
  const refused: request.Response[] = [];
  for (let round = 0; round < 60 && refused.length < 20; round += 1) {
    await beforeRound();
    for (const answer of await postPayments(http, round * 10, 10)) {
      if (answer.status === CREATED) acknowledged.push(answer.body.paymentId);
      else refused.push(answer);
    }
  }
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThanOrEqual(20);
  for (const answer of refused) {
    expect(answer.status).toBe(503);
    expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    expect(answer.body).toEqualBody(
      tppError(
        'SERVICE_UNAVAILABLE',
        "{sensitive} XS2A029E: the sandbox's database is full or unavailable: nothing was changed, try again later",
      ),
    );
  }
  return acknowledged;
}
