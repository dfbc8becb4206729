import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError, ERROR_CATALOGUE } from './error-catalogue';

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
      { messageId: 'XS2A010E', path: 'dateFrom', description: 'dateFrom is after dateTo' },
      { messageId: 'XS2A001E', path: 'dateTo', description: 'dateTo is required' },
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
});
