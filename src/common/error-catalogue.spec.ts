import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detail, DomainError, ERROR_CATALOGUE, isRefusal, refusal } from './error-catalogue';

describe('error catalogue', () => {
  it("is listed in docs/errors.md, row for row (the services' rows are on their pages: services.spec.ts)", () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'errors.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| (XS2A\d{3}E) \| (\d{3}) \| ([A-Z_]+) \|/gm)].map(([, id, status, code]) => [
      id,
      Number(status),
      code,
    ]);
    expect(rows).toEqual(Object.entries(ERROR_CATALOGUE).map(([id, { status, code }]) => [id, status, code]));
  });

  it('renders the Berlin Group body, one message per detail, with the status of the first', () => {
    const error = new DomainError(
      detail('periodInvalid', 'dateFrom is after dateTo', 'dateFrom'),
      detail('formatError', 'dateTo is required', 'dateTo'),
    );
    expect(error.status()).toBe(400);
    expect(error.toBody()).toEqual({
      tppMessages: [
        { category: 'ERROR', code: 'PERIOD_INVALID', path: 'dateFrom', text: '{sensitive} XS2A010E: dateFrom is after dateTo' },
        { category: 'ERROR', code: 'FORMAT_ERROR', path: 'dateTo', text: '{sensitive} XS2A001E: dateTo is required' },
      ],
      _links: null,
    });
  });

  it('names every message once: the code refuses by name, and tells refusals apart by name', () => {
    const names = Object.values(ERROR_CATALOGUE).map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const [id, { name, status }] of Object.entries(ERROR_CATALOGUE)) {
      const error = refusal(name, 'why', 'where');
      expect([error.details, error.status(), error.is(name), isRefusal(error, name)]).toEqual([
        [{ messageId: id, path: 'where', description: 'why' }],
        status,
        true,
        true,
      ]);
    }
    expect([isRefusal(refusal('paymentUnknown', 'x'), 'consentUnknown'), isRefusal(new Error('x'), 'paymentUnknown')]).toEqual([
      false,
      false,
    ]);
  });
});
