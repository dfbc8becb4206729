import type { Server } from 'node:http';
import request from 'supertest';
import { CREATED, PROFILE, shaped } from './support/profile';
import { openApiDocument } from '../src/app.factory';
import { OpenApiContract } from './support/openapi-contract';
import { tppError, tppHeaders, useSandbox } from './support/sandbox';

/** The bank's operations need the bearer token; Berlin Group's yaml lets them come without (tpp.oauth: optional). */
const XS2A_SECURITY = PROFILE === 'bank' ? [{ bearer: [] }] : [{ bearer: [] }, {}];

type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security?: unknown[];
};

describe('the OpenAPI document', () => {
  const sandbox = useSandbox();
  let paths: Record<string, Record<string, Operation>>;
  let examples: Record<string, { summary: string; value: object }>;
  beforeAll(async () => {
    const response = await request(sandbox.http).get('/docs-json').expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    paths = response.body.paths;
    examples = response.body.components.examples;
    // Opaque tokens (no bearerFormat), and where to get one.
    expect(response.body.components.securitySchemes.bearer).toEqualBody({
      type: 'http',
      scheme: 'bearer',
      description: 'A bearer token: POST /oauth2/token with grant_type=client_credentials and any client_id answers one.',
    });
  });

  /**
   * Every API operation also documents 413 (body over the limit; Berlin Group's answers say 400
   * instead, so their document lists no 413), 500 (a bug) and 503 (a database that is full or unavailable).
   */
  const withCommon = (statuses: string[]) => [...statuses, ...(PROFILE === 'bank' ? ['413'] : []), '500', '503'].sort();
  /** What every /v1 operation answers besides: 406 for an Accept it does not answer in (docs/formats.md). */
  const withXs2a = (statuses: string[]) => withCommon([...statuses, '406']);
  const headersOf = (operation: Operation) => (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
  const queryOf = (operation: Operation) => (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);

  /** A used-up frequencyPerDay: the bank's 401 CONSENT_UNKNOWN, Berlin Group's 429 ACCESS_EXCEEDED. */
  const ACCESS_EXCEEDED = PROFILE === 'bank' ? [] : ['429'];

  it.each([
    // 429: the world's quota (WORLD_MAX_RESOURCES), on every route that stores a resource.
    ['/v1/consents', 'post', [String(CREATED), '400', '401', '429']],
    ['/v1/consents/{consentId}', 'get', ['200', '400', '401', '403']],
    ['/v1/consents/{consentId}/status', 'get', ['200', '400', '401', '403']],
    ['/v1/consents/{consentId}', 'delete', ['204', '400', '401', '403', '409']],
    ['/v1/accounts', 'get', ['200', '400', '401', '403', '404', ...ACCESS_EXCEEDED]],
    ['/v1/accounts/{accountId}', 'get', ['200', '400', '401', '403', '404', ...ACCESS_EXCEEDED]],
    ['/v1/accounts/{accountId}/balances', 'get', ['200', '400', '401', '403', '404', ...ACCESS_EXCEEDED]],
    ['/v1/accounts/{accountId}/transactions', 'get', ['200', '400', '401', '403', '404', ...ACCESS_EXCEEDED]],
  ])('documents %s %s with the bearer token, X-Request-ID and its responses', (path, method, statuses) => {
    const operation = paths[path][method];
    expect(operation.security).toEqual(XS2A_SECURITY);
    expect(headersOf(operation)).toContain('X-Request-ID');
    expect(Object.keys(operation.responses).sort()).toEqual(withXs2a(statuses));
  });

  const SERVICES = ['payments', 'bulk-payments', 'periodic-payments'];
  it.each([
    ['/v1/payments/sepa-credit-transfers', 'SepaCreditTransferDto'],
    ['/v1/payments/instant-sepa-credit-transfers', 'InstantSepaCreditTransferDto'],
    ['/v1/payments/cross-border-credit-transfers', 'CrossBorderCreditTransferDto'],
    ['/v1/bulk-payments/sepa-credit-transfers', 'BulkPaymentDto'],
    ['/v1/periodic-payments/sepa-credit-transfers', 'PeriodicPaymentDto'],
  ])('documents POST %s with its own request schema and the mandatory PSU-IP-Address', (path, schema) => {
    const operation = paths[path].post;
    expect(operation.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${schema}` },
          examples: { 'Try it out': { value: expect.any(Object) } },
        },
      },
    });
    expect(operation.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'PSU-IP-Address', in: 'header', required: true })]),
    );
    expect(Object.keys(operation.responses).sort()).toEqual(withXs2a([String(CREATED), '400', '401', '429']));
    expect(operation.security).toEqual(XS2A_SECURITY);
  });

  it.each(SERVICES)('documents reading, status and cancellation under /v1/%s', (service) => {
    const base = `/v1/${service}/{product}/{paymentId}`;
    expect(Object.keys(paths[base].get.responses).sort()).toEqual(withXs2a(['200', '400', '401', '404']));
    expect(Object.keys(paths[`${base}/status`].get.responses).sort()).toEqual(withXs2a(['200', '400', '401', '404']));
    expect(Object.keys(paths[base].delete.responses).sort()).toEqual(withXs2a(['202', '204', '400', '401', '404', '405']));
    expect(headersOf(paths[base].get)).toContain('X-Request-ID');
  });

  it('keeps the catch-all for unknown products out of the document', () => {
    expect(Object.keys(paths).filter((path) => /\/v1\/[a-z-]+\/\{product\}$/.test(path))).toEqual([]);
  });

  it('documents the consent request body and the Consent-ID header and query parameters of account information', () => {
    // One example an access form: the first is what Swagger UI's Try it out sends.
    expect(paths['/v1/consents'].post.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/CreateConsentDto' },
          examples: { accounts: expect.any(Object), allAccounts: expect.any(Object), allPsd2: expect.any(Object) },
        },
      },
    });
    expect(headersOf(paths['/v1/consents'].post)).toEqual(expect.arrayContaining(['PSU-IP-Address', 'X-Request-ID']));
    for (const path of [
      '/v1/accounts',
      '/v1/accounts/{accountId}',
      '/v1/accounts/{accountId}/balances',
      '/v1/accounts/{accountId}/transactions',
    ]) {
      expect(headersOf(paths[path].get)).toContain('Consent-ID');
    }
    expect(queryOf(paths['/v1/accounts'].get)).toEqual(['withBalance']);
    expect(queryOf(paths['/v1/accounts/{accountId}/transactions'].get).sort()).toEqual([
      'bookingStatus',
      'dateFrom',
      'dateTo',
      'page',
      'pageSize',
    ]);
  });

  it('documents the authorisation sub-resources of consents and payments', () => {
    expect(Object.keys(paths['/v1/consents/{consentId}/authorisations'].post.responses).sort()).toEqual(
      withXs2a(['201', '400', '401', '403', '409']),
    );
    expect(Object.keys(paths['/v1/consents/{consentId}/authorisations'].get.responses).sort()).toEqual(
      withXs2a(['200', '400', '401', '403']),
    );
    expect(Object.keys(paths['/v1/consents/{consentId}/authorisations/{authorisationId}'].get.responses).sort()).toEqual(
      withXs2a(['200', '400', '401', '403', '404']),
    );
    for (const service of SERVICES) {
      for (const segment of ['authorisations', 'cancellation-authorisations']) {
        const base = `/v1/${service}/{product}/{paymentId}/${segment}`;
        expect(Object.keys(paths[base].post.responses).sort()).toEqual(withXs2a(['201', '400', '401', '404', '405', '409']));
        expect(Object.keys(paths[base].get.responses).sort()).toEqual(withXs2a(['200', '400', '401', '404']));
        expect(Object.keys(paths[`${base}/{authorisationId}`].get.responses).sort()).toEqual(withXs2a(['200', '400', '401', '404']));
        expect(Object.keys(paths[`${base}/{authorisationId}`].put.responses).sort()).toEqual(
          withXs2a(['200', '400', '401', '403', '404', '405', '409']),
        );
        expect(headersOf(paths[base].post)).toEqual(
          expect.arrayContaining(['TPP-Redirect-Preferred', 'TPP-Decoupled-Preferred', 'PSU-ID', 'TPP-Nok-Redirect-URI']),
        );
      }
    }
    expect(Object.keys(paths['/v1/consents/{consentId}/authorisations/{authorisationId}'].put.responses).sort()).toEqual(
      withXs2a(['200', '400', '401', '403', '404', '405', '409']),
    );
    expect(headersOf(paths['/v1/consents'].post)).toEqual(
      expect.arrayContaining(['TPP-Redirect-Preferred', 'TPP-Decoupled-Preferred', 'PSU-ID', 'TPP-Nok-Redirect-URI']),
    );
    const created = paths['/v1/consents'].post.responses as Record<string, { headers?: object }>;
    expect((created['200'] ?? created['201']).headers).toEqual({
      'ASPSP-SCA-Approach': expect.objectContaining({ schema: { type: 'string', enum: ['REDIRECT', 'EMBEDDED', 'DECOUPLED'] } }),
      'ASPSP-Notification-Support': expect.objectContaining({ schema: { type: 'boolean' } }),
      'ASPSP-Notification-Content': expect.objectContaining({ schema: { type: 'string' } }),
      'Sandbox-Fixture-Consent': expect.objectContaining({ schema: { type: 'string' } }),
    });
  });

  it('documents the notification headers on every creation (docs/notifications.md)', () => {
    for (const path of [
      '/v1/consents',
      '/v1/payments/sepa-credit-transfers',
      '/v1/periodic-payments/sepa-credit-transfers',
      '/v1/bulk-payments/sepa-credit-transfers',
    ]) {
      expect(headersOf(paths[path].post)).toEqual(expect.arrayContaining(['TPP-Notification-URI', 'TPP-Notification-Content-Preferred']));
    }
  });

  it('documents the sandbox control endpoints under their own tag, the bearer token optional (AUTH_MODE=strict only)', () => {
    const control = Object.entries(paths).filter(([path]) => path.startsWith('/sandbox'));
    expect(control.map(([path]) => path).sort()).toEqual([
      '/sandbox/certificates',
      '/sandbox/certificates/ca',
      '/sandbox/certificates/{serialNumber}/revocation',
      '/sandbox/clock',
      '/sandbox/clock/advance',
      '/sandbox/conditions',
      '/sandbox/consents/{consentId}/revocation',
      '/sandbox/consents/{consentId}/revocation-links',
      '/sandbox/dashboard-links',
      '/sandbox/events',
      '/sandbox/payments/{paymentId}/instalments',
      // The holder's permission dashboard (docs/permission-dashboard.md), in every built-in profile.
      '/sandbox/psus/{psuId}/permissions',
      '/sandbox/psus/{psuId}/permissions/{consentId}/reestablishment',
      '/sandbox/psus/{psuId}/permissions/{consentId}/withdrawal',
      '/sandbox/sca/consents/{consentId}',
      '/sandbox/sca/payments/{paymentId}',
      '/sandbox/sca/payments/{paymentId}/cancellation',
      // Where the profile offers signing baskets (docs/signing-baskets.md).
      ...(PROFILE === 'berlin-group' ? ['/sandbox/sca/signing-baskets/{basketId}'] : []),
      '/sandbox/scenarios',
      '/sandbox/scenarios/{scenarioId}',
      '/sandbox/world/reset',
      '/sandbox/world/snapshots',
      '/sandbox/world/snapshots/{snapshotId}',
      '/sandbox/world/snapshots/{snapshotId}/restore',
    ]);
    for (const [, operations] of control) {
      for (const operation of Object.values(operations) as (Operation & { tags: string[] })[]) {
        expect(operation.tags).toEqual(['Sandbox control']);
        expect(operation.security).toEqual([{ bearer: [] }, {}]);
      }
    }
  });

  it('leaves the SCA pages out', () => {
    expect(Object.keys(paths).filter((path) => path.startsWith('/sca'))).toEqual([]);
  });

  it('lists no operation without a documented success answer and a documented body for it', () => {
    const lacking = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => {
          const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
          return (
            success.length === 0 || success.some(([status, response]) => status !== '204' && !(response as { content?: unknown }).content)
          );
        })
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(lacking).toEqual([]);
  });

  it('documents each parameter once: header names compare case-insensitively, and a generated client would get two', () => {
    const twice = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => {
        const names = (operation.parameters ?? []).map(
          ({ in: place, name }) => `${place} ${place === 'header' ? name.toLowerCase() : name}`,
        );
        return names.filter((name, index) => names.indexOf(name) !== index).map((name) => `${method.toUpperCase()} ${path}: ${name}`);
      }),
    );
    expect(twice).toEqual([]);
  });

  it('the contract check that every e2e suite runs catches an undocumented status and a body that does not match', async () => {
    const document = structuredClone(openApiDocument(sandbox.app));
    const status = document.paths['/v1/consents/{consentId}/status'].get!;
    delete status.responses['403'];
    status.responses['200'] = {
      description: 'altered',
      content: { 'application/json': { schema: { type: 'object', required: ['somethingElse'] } } },
    };
    const contract = new OpenApiContract(document);
    contract.observe(sandbox.http as Server);
    await request(sandbox.http).get('/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2/status').set(tppHeaders()).expect(200);
    await request(sandbox.http).get('/v1/consents/ca2636e6-02f6-4c9d-ae29-051b23a61c11/status').set(tppHeaders()).expect(403);
    expect(contract.checked).toBe(2);
    expect(contract.failures).toEqual([
      expect.stringMatching(/-> 200: data must have required property 'somethingElse'/),
      expect.stringMatching(/-> 403: status not documented for GET \/v1\/consents\/\{consentId\}\/status$/),
    ]);
    expect(sandbox.contract.checked).toBeGreaterThan(0);
  });

  it('shows each error answer with the messages it stands for, as the profile renders them (docs/errors.md)', () => {
    const unknown = (paths['/v1/consents/{consentId}'].get.responses as Record<string, { content: Record<string, { examples: object }> }>)[
      '403'
    ];
    expect(unknown.content['application/json'].examples).toEqual({
      'CONSENT_UNKNOWN XS2A017E': { $ref: '#/components/examples/XS2A017E' },
    });
    expect(examples.XS2A017E).toEqual({
      summary: 'no consent with this Consent-ID',
      value: shaped(tppError('CONSENT_UNKNOWN', '{sensitive} XS2A017E: no consent with this Consent-ID')),
    });
    const fault = (paths['/oauth2/token'].post.responses as Record<string, { content: Record<string, { examples: object }> }>)['500'];
    expect(Object.keys(fault.content['application/json'].examples)).toEqual(['INTERNAL_SERVER_ERROR XS2A013E']);
  });

  it('documents /health', () => {
    expect(Object.keys(paths['/health'].get.responses).sort()).toEqual(withCommon(['200', '400']));
    expect((paths['/health'].get.responses as Record<string, { description: string }>)['500'].description).toContain(
      'the database cannot be reached',
    );
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await request(sandbox.http).get('/docs').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('swagger-ui');
  });
});
