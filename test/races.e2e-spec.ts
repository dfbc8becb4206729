import request from 'supertest';
import { CREATED } from './support/profile';
import { sepaPayment } from './support/fixtures';
import { tppHeaders, useSandbox } from './support/sandbox';
import { Authorisation } from '../src/authorisation/authorisation.entity';

const N = 50;
const payment = (extra: object = {}) => sepaPayment('10.00', extra);
const consentRequest = {
  access: { availableAccounts: 'allAccounts' },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
};
const SEPA = '/v1/payments/sepa-credit-transfers';

/** How many answers had each status, e.g. { 200: 1, 409: 49 }. */
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

/** `N` requests, made by `make(i)`, all sent before any is answered. */
const race = (make: (i: number) => request.Test) => Promise.all(Array.from({ length: N }, (_, i) => make(i)));

describe(`races: ${N} concurrent requests on one resource end in exactly one winning transition`, () => {
  describe('SCA_MODE=redirect', () => {
    const sandbox = useSandbox({ SCA_MODE: 'redirect' });
    const http = () => request(sandbox.http);
    const decide = (path: string, decision: string) => http().post(`/sandbox/sca/${path}`).send({ psuId: 'georg.mustermann', decision });
    const authorisationStatuses = (resourceId: string) =>
      sandbox.dataSource
        .getRepository(Authorisation)
        .find({ select: { kind: true, status: true }, where: { resourceId }, order: { kind: 'ASC', status: 'ASC' } });

    it('a received consent: approvals, denials and reads at once; one decision wins, the rest 409', async () => {
      const { consentId } = (await http().post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED)).body;
      const responses = await race((i) =>
        i % 5 === 4
          ? http().get(`/v1/consents/${consentId}/status`).set(tppHeaders())
          : decide(`consents/${consentId}`, i % 2 ? 'deny' : 'approve'),
      );
      const decisions = responses.filter((_, i) => i % 5 !== 4);
      expect(tally(decisions.map((response) => response.status))).toEqual({ 200: 1, 409: decisions.length - 1 });
      const winner = decisions.find((response) => response.status === 200)!.body.consentStatus;
      expect(['valid', 'rejected']).toContain(winner);
      for (const read of responses.filter((_, i) => i % 5 === 4)) {
        expect(read.status).toBe(200);
        expect(['received', winner]).toContain(read.body.consentStatus);
      }
      expect((await http().get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({
        consentStatus: winner,
      });
      expect(await authorisationStatuses(consentId)).toEqual([{ kind: 'consent', status: winner === 'valid' ? 'finalised' : 'failed' }]);
    });

    it('a valid consent: concurrent DELETEs and reads; one 204, the rest 409', async () => {
      const { consentId } = (await http().post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED)).body;
      await decide(`consents/${consentId}`, 'approve').expect(200);
      const responses = await race((i) =>
        i % 5 === 4
          ? http().get(`/v1/consents/${consentId}`).set(tppHeaders())
          : http().delete(`/v1/consents/${consentId}`).set(tppHeaders()),
      );
      const deletes = responses.filter((_, i) => i % 5 !== 4);
      expect(tally(deletes.map((response) => response.status))).toEqual({ 204: 1, 409: deletes.length - 1 });
      for (const read of responses.filter((_, i) => i % 5 === 4)) expect(['valid', 'terminatedByTpp']).toContain(read.body.consentStatus);
      expect((await http().get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({
        consentStatus: 'terminatedByTpp',
      });
    });

    it('a RCVD payment: approvals, denials, cancellations and reads at once; exactly one of them moves it', async () => {
      const { paymentId } = (
        await http()
          .post(SEPA)
          .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
          .send(payment())
          .expect(CREATED)
      ).body;
      const kinds = ['approve', 'deny', 'cancel', 'read', 'approve'] as const;
      const responses = await race((i) => {
        const kind = kinds[i % kinds.length];
        if (kind === 'cancel') return http().delete(`${SEPA}/${paymentId}`).set(tppHeaders());
        if (kind === 'read') return http().get(`${SEPA}/${paymentId}/status`).set(tppHeaders());
        return decide(`payments/${paymentId}`, kind);
      });
      const moves = responses.filter((_, i) => kinds[i % kinds.length] !== 'read');
      const won = moves.filter((response) => response.status === 200 || response.status === 204);
      expect(won).toHaveLength(1);
      const final = won[0].status === 204 ? 'CANC' : won[0].body.transactionStatus;
      expect(['ACSP', 'RJCT', 'CANC']).toContain(final);
      // Losers: a decision finds the payment decided (409); a cancellation finds it final (405).
      for (const [i, response] of responses.entries()) {
        if (response === won[0]) continue;
        const kind = kinds[i % kinds.length];
        const expected = { approve: 409, deny: 409, cancel: 405, read: 200 }[kind];
        expect({ kind, status: response.status }).toEqual({ kind, status: expected });
      }
      expect((await http().get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({
        transactionStatus: final,
      });
      expect(await authorisationStatuses(paymentId)).toEqual([{ kind: 'payment', status: final === 'ACSP' ? 'finalised' : 'failed' }]);
    });

    it("a PDNG payment's cancellation: concurrent approvals; one 200 (CANC), the rest 409", async () => {
      const { paymentId } = (
        await http()
          .post(SEPA)
          .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
          .send(payment({ requestedExecutionDate: '2026-05-01' }))
          .expect(CREATED)
      ).body;
      await decide(`payments/${paymentId}`, 'approve').expect(200);
      await http().delete(`${SEPA}/${paymentId}`).set(tppHeaders()).expect(202);
      const responses = await race(() => decide(`payments/${paymentId}/cancellation`, 'approve'));
      expect(tally(responses.map((response) => response.status))).toEqual({ 200: 1, 409: N - 1 });
      expect(responses.find((response) => response.status === 200)!.body).toEqualBody({ transactionStatus: 'CANC' });
    });
  });

  describe('SCA_MODE=auto', () => {
    const sandbox = useSandbox();

    it('a RCVD payment read 50 times at once: SCA completes once and every read answers its one outcome', async () => {
      const { paymentId } = (
        await request(sandbox.http)
          .post(SEPA)
          .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
          .send(payment())
          .expect(CREATED)
      ).body;
      const responses = await race((i) =>
        request(sandbox.http)
          .get(`${SEPA}/${paymentId}${i % 2 ? '/status' : ''}`)
          .set(tppHeaders()),
      );
      for (const response of responses) expect(response.status).toBe(200);
      expect(new Set(responses.map((response) => response.body.transactionStatus))).toEqual(new Set(['ACSP']));
      const authorisations = await sandbox.dataSource
        .getRepository(Authorisation)
        .find({ select: { status: true }, where: { resourceId: paymentId } });
      expect(authorisations).toEqual([{ status: 'finalised' }]);
    });
  });
});
