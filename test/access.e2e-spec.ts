import { createHash, randomUUID, sign, X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import { ibanOf } from '../src/common/iban';
import { RouteAccessCheck } from '../src/http/route-access';
import { messageListOf } from '../src/http/berlin-group-answers';
import { VOP_MESSAGE_LIST } from '../src/verification-of-payee/vop-message-list';
import { ENGINE } from './support/engine';
import { GEORG, MARIANNE, sepaPayment } from './support/fixtures';
import { inProfile } from './support/profile';
import { SERVICES } from '../src/services';
import { issueToken, Sandbox, tppError, tppHeaders, useSandbox } from './support/sandbox';

/**
 * Who may call a route, and on whose data (docs/security.md): the role matrix and the isolation
 * matrix are generated from the served document, so that a new route is covered the day it is
 * added; then each row of the threat table, as an attacker tried it.
 */
jest.setTimeout(180_000);

const folder = mkdtempSync(join(tmpdir(), 'psd2-access-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function profileWith(name: string, base: string, tpp: string): string {
  const path = join(folder, name);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'profile.yaml'), `extends: ${base}\ntpp:\n${tpp}`);
  return path;
}

const ROLES = ['PSP_AS', 'PSP_AI', 'PSP_PI', 'PSP_IC', 'VOP_RS'] as const;
type Role = (typeof ROLES)[number];
/** Beside the role a route declares, who else of ROLES may call it: a PISP checks a payee before it pays (docs/tpp-identity.md, "Roles"). */
const ALSO_CALLS: Partial<Record<Role, Role[]>> = { VOP_RS: ['PSP_PI'] };

/**
 * Whether the confirmation of funds is in the build: the rows of the threat table about its routes
 * exist where it does, as the card accounts' do where they are served (the removal proof runs this
 * suite without each service: test/service-removal.e2e-spec.ts).
 */
const FUNDS = SERVICES.some(({ name }) => name === 'fundsConfirmation');

interface Issued {
  serialNumber: string;
  certificate: string;
  privateKey: string;
}

async function issue(http: App, type: 'QSEAL' | 'QWAC', roles: Role[], token?: string): Promise<Issued> {
  const call = request(http).post('/sandbox/certificates');
  return (
    await (token ? call.set('Authorization', `Bearer ${token}`) : call)
      .send({ type, organisationName: `${type} ${roles.join(' ')}`, roles })
      .expect(201)
  ).body;
}

const der = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');

/** The sandbox CA's name as a keyId's CA part spells it. */
async function caName(http: App): Promise<string> {
  const { certificate } = (await request(http).get('/sandbox/certificates/ca').expect(200)).body;
  return new X509Certificate(certificate).subject.split('\n').join(',');
}

interface Signing {
  /** What TPP-Signature-Certificate holds; the signer's base64 DER by default. */
  certificate?: string;
  keyId?: string;
}

/** The headers of a request signed with `signer`'s key over digest and x-request-id. */
function signed(signer: Issued, ca: string, body: string, headers: Record<string, string>, signing: Signing = {}): Record<string, string> {
  const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
  const signingString = `digest: ${digest}\nx-request-id: ${headers['X-Request-ID']}`;
  const signature = sign('sha256', Buffer.from(signingString), signer.privateKey).toString('base64');
  const keyId = signing.keyId ?? `SN=${signer.serialNumber},CA=${ca}`;
  return {
    ...headers,
    Digest: digest,
    Signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="digest x-request-id",signature="${signature}"`,
    'TPP-Signature-Certificate': signing.certificate ?? der(signer.certificate),
  };
}

type Method = 'get' | 'post' | 'put' | 'delete';
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { enum?: string[] };
}
interface Operation {
  method: Method;
  path: string;
  role?: Role;
  parameters: Parameter[];
  /** The media type of its body: a pain.001 product's is application/xml (docs/formats.md). */
  bodyType: string;
}

/** Every operation of the served document under `prefix`. */
async function operations(http: App, prefix: RegExp): Promise<Operation[]> {
  const document = (await request(http).get('/docs-json').expect(200)).body as {
    paths: Record<
      string,
      Record<string, { parameters?: Parameter[]; 'x-psd2-role'?: Role; requestBody?: { content: Record<string, unknown> } }>
    >;
  };
  return Object.entries(document.paths)
    .filter(([path]) => prefix.test(path))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method as Method,
        path,
        role: operation['x-psd2-role'],
        parameters: operation.parameters ?? [],
        bodyType: Object.keys(operation.requestBody?.content ?? {})[0] ?? 'application/json',
      })),
    );
}

const send = (http: App, method: Method, path: string, headers: Record<string, string>, body?: string, type = 'application/json') => {
  const call = request(http)[method](path).set(headers);
  return body === undefined ? call : call.set('Content-Type', type).send(body);
};

/** A body as the berlin-group profile answers it (no nulls). */
const bg = <T>(body: T): T => inProfile('berlin-group', body);

const roleInvalid = (serial: string, granted: Role, needed: Role, list = 'tppMessages') =>
  tppError('ROLE_INVALID', `{sensitive} XS2A050E: the certificate ${serial} grants ${granted}, not ${needed}`, null, list);

/**
 * The profiles whose every operation meets every role. On PostgreSQL only berlin-group's, which
 * offers every operation: a role is the certificate's and the route's, the same on both engines,
 * and what the engine adds (each operation reached with a role it declares, never a 5xx) is each
 * operation's, not each profile's.
 */
const MATRIX_PROFILES = ENGINE === 'postgres' ? ['berlin-group'] : ['bank', 'berlin-group', 'alpenbank'];

describe.each(MATRIX_PROFILES)('the role matrix of every operation of %s, from its served document', (profile) => {
  const sandbox = useSandbox({ PROFILE: profileWith(`roles-${profile}`, profile, '  signatures: required\n'), SCA_MODE: 'redirect' });

  it('a certificate with one role passes only where the route declares that role (ROLE_INVALID elsewhere), and so does the path in upper case and with a trailing slash', async () => {
    const ca = await caName(sandbox.http);
    const { answers } = (await request(sandbox.http).get('/health').expect(200)).body.profile;
    const certificates = Object.fromEntries(
      await Promise.all(ROLES.map(async (role) => [role, await issue(sandbox.http, 'QSEAL', [role])] as const)),
    ) as Record<Role, Issued>;
    const tried = await operations(sandbox.http, /^\/v[12]\//);
    expect(tried.filter(({ role }) => role === undefined)).toEqual([]);
    for (const { method, path, role, parameters, bodyType } of tried) {
      const filled = path.replace(
        /\{(\w+)\}/g,
        (_, name: string) => parameters.find((parameter) => parameter.name === name)?.schema?.enum?.[0] ?? randomUUID(),
      );
      const body = ['post', 'put'].includes(method) ? (bodyType === 'application/xml' ? '<Document/>' : '{}') : undefined;
      const headers = () => tppHeaders({ 'Consent-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10' });
      const attempt = (certificate: Issued, url: string) =>
        send(sandbox.http, method, url, signed(certificate, ca, body ?? '', headers()), body, bodyType);
      const allowed = await attempt(certificates[role!], filled);
      const where = `${method.toUpperCase()} ${path}`;
      const list = messageListOf([VOP_MESSAGE_LIST], path, answers === 'berlin-group');
      expect([where, allowed.status < 500, allowed.body[list]?.[0]?.code]).not.toEqual([where, true, 'ROLE_INVALID']);
      expect([where, allowed.status < 500]).toEqual([where, true]);
      for (const other of ROLES.filter((granted) => granted !== role && !ALSO_CALLS[role!]?.includes(granted))) {
        const refused = await attempt(certificates[other], filled);
        expect([where, refused.status]).toEqual([where, 401]);
        expect(refused.body).toEqual(inProfile(answers, roleInvalid(certificates[other].serialNumber, other, role!, list)));
      }
      const wrong = ROLES.find((granted) => granted !== role)!;
      for (const variant of [filled.toUpperCase(), `${filled}/`]) {
        const same = await attempt(certificates[role!], variant);
        expect([where, variant, same.status]).toEqual([where, variant, allowed.status]);
        const refused = await attempt(certificates[wrong], variant);
        expect([where, variant, refused.status, refused.body[list]?.[0]?.code]).toEqual([where, variant, 401, 'ROLE_INVALID']);
      }
    }
  });
});

/** What a client may see of another's data: nothing, in AUTH_MODE=strict. */
describe("isolation, AUTH_MODE=strict (berlin-group, SCA_MODE=auto): client B with client A's IDs and IBANs, and the rows of the threat table (docs/security.md) that are about whose data", () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'auto', AUTH_MODE: 'strict' });
  let a: Client;
  let b: Client;
  let owned: Owned;

  beforeAll(async () => {
    a = await client(sandbox, 'sandbox-tpp', 'sandbox-secret');
    b = await client(sandbox, 'sandbox-tpp-2', 'sandbox-secret-2');
    owned = await ownedBy(a, await servedPaths(sandbox.http));
  });

  it("every operation of the served document that takes an ID answers A's ID as an unknown one, and nothing of A changes", async () => {
    const before = await stateOf(a, owned);
    const tried = await operations(sandbox.http, /^\/(v[12]|sandbox)\/.*\{/);
    expect(tried.length).toBeGreaterThan(30);
    let ownReads = 0;
    for (const { method, path, parameters } of tried) {
      const unknown = unknownIds();
      const fill = (ids: Record<string, string>) =>
        path.replace(/\{(\w+)\}/g, (_, name: string) => {
          const fixed = parameters.find((parameter) => parameter.name === name)?.schema?.enum?.[0];
          if (fixed) return fixed;
          if (!(name in ids)) throw new Error(`${method} ${path}: no live ID for {${name}}; add one to ownedBy`);
          return ids[name];
        });
      const body = ['post', 'put'].includes(method) ? JSON.stringify(BODIES[path] ?? {}) : undefined;
      const headers = (ids: Record<string, string>) => ({ 'Consent-ID': b.consentId, 'PSU-IP-Address': '192.0.2.10', 'PSU-ID': ids.psuId });
      // The IDs are live: A reads its own (a GET changes nothing).
      if (
        method === 'get' &&
        (await a.send(method, fill(owned.ids), { ...headers(owned.ids), 'Consent-ID': owned.ids.consentId })).status === 200
      )
        ownReads += 1;
      const theirs = await b.send(method, fill(owned.ids), headers(owned.ids), body);
      const nobodys = await b.send(method, fill(unknown), headers(unknown), body);
      const where = `${method.toUpperCase()} ${path}`;
      expect([where, theirs.status, codes(theirs.body)]).toEqual([where, nobodys.status, codes(nobodys.body)]);
    }
    // The IDs are live: A reads its own, on a third of the GETs at least, whatever services the build has.
    expect(ownReads).toBeGreaterThan(tried.filter(({ method }) => method === 'get').length / 3);
    expect(await stateOf(a, owned)).toEqual(before);
  });

  it("B's consent naming A's account, valid at once in auto mode (docs/behaviour.md), reads it as it reads an account nobody holds", async () => {
    const named = async (iban: string) => {
      const terms = {
        access: { accounts: [{ iban }], balances: [{ iban }], transactions: [{ iban }] },
        recurringIndicator: true,
        combinedServiceIndicator: false,
        validUntil: '2026-06-30',
        frequencyPerDay: 4,
      };
      const { consentId, consentStatus } = (await b.send('post', '/v1/consents', {}, JSON.stringify(terms)).expect(201)).body;
      expect(consentStatus).toBe('valid');
      const read = async (path: string) => {
        const response = await b.send('get', path, { 'Consent-ID': consentId });
        return [response.status, JSON.stringify(response.body).replaceAll(consentId, '<consent>').replaceAll(iban, '<iban>')];
      };
      return [
        await read('/v1/accounts'),
        await read(`/v1/accounts/${iban}/balances`),
        await read(`/v1/accounts/${iban}/transactions?bookingStatus=both`),
      ];
    };
    const theirs = await named(owned.iban);
    expect(theirs[0]).toEqual([200, JSON.stringify({ accounts: [] })]);
    expect(theirs).toEqual(await named(unknownIds().accountId));
  });

  it("the routes and their roles in docs/security.md and the services' pages are the ones the code declares", () => {
    const docs = join(__dirname, '..', 'docs');
    const rows = (file: string) =>
      [...readFileSync(join(docs, file), 'utf8').matchAll(/^\| (GET|POST|PUT|DELETE) \| `([^`]+)` \| (\w+) \|$/gm)].map(
        ([, method, path, who]) => `${method} ${path} ${who}`,
      );
    const declared = sandbox.app
      .get(RouteAccessCheck)
      .routes()
      .map(({ method, path, access }) => `${method} ${path} ${access!.role ?? (access as { audience: string }).audience}`);
    const core = rows('security.md');
    // A service's page may list the routes of a service this build lacks (the removal proof): every declared one is listed once.
    const listed = readdirSync(docs)
      .filter((file) => file.endsWith('.md'))
      .flatMap(rows);
    expect(declared.filter((route) => listed.filter((row) => row === route).length !== 1)).toEqual([]);
    expect(core.filter((route) => !declared.includes(route))).toEqual([]);
  });

  it("every operation that names an account in its body answers A's scenario IBAN as an unknown one, and nothing of A changes", async () => {
    const before = await stateOf(a, owned);
    const nobody = ibanOf('AT', '99001' + '0'.repeat(11));
    for (const [path, template] of Object.entries(ACCOUNT_BODIES)) {
      const answer = async (iban: string) => {
        const response = await b.send(
          'post',
          path,
          { 'PSU-IP-Address': '192.0.2.10', 'Client-VOP-Requested': 'true' },
          JSON.stringify(template(iban)),
        );
        return {
          status: response.status,
          body: JSON.parse(
            JSON.stringify(response.body)
              .replaceAll(iban, 'IBAN')
              .replace(/[0-9a-f-]{36}/g, 'ID'),
          ),
        };
      };
      expect([path, await answer(owned.iban)]).toEqual([path, await answer(nobody)]);
    }
    expect(await stateOf(a, owned)).toEqual(before);
  });

  it("A's IDs in a body or a query are answered as unknown ones: a signing basket of A's payment and consent, the history of A's resources", async () => {
    const before = await stateOf(a, owned);
    const answer = async (ids: Record<string, string>) => {
      const basket = await b.send(
        'post',
        '/v1/signing-baskets',
        {},
        JSON.stringify({ paymentIds: [ids.paymentId], consentIds: [ids.consentId] }),
      );
      const events = await Promise.all(
        ['paymentId', 'consentId', 'basketId', 'scenarioId'].map((name) => b.send('get', `/sandbox/events?resourceId=${ids[name]}`)),
      );
      const text = JSON.stringify([basket.status, basket.body, events.map(({ status, body }) => [status, body])]);
      return Object.values(ids).reduce((all, id) => all.replaceAll(id, 'ID'), text);
    };
    expect(await answer(owned.ids)).toEqual(await answer(unknownIds()));
    expect(await stateOf(a, owned)).toEqual(before);
  });

  it("3: B pays from A's scenario account, to a payee A's holder trusts and to any other: answered as a payment from an unknown account, rejected at the first read, and A's money stays", async () => {
    const before = await stateOf(a, owned);
    for (const creditor of [GEORG, MARIANNE]) {
      const paid = await b
        .send(
          'post',
          '/v1/payments/sepa-credit-transfers',
          { 'PSU-IP-Address': '192.0.2.10' },
          JSON.stringify(sepaPayment('100.00', { debtorAccount: { iban: owned.iban }, creditorAccount: { iban: creditor } })),
        )
        .expect(201);
      expect(paid.body.transactionStatus).toBe('RCVD');
      expect(paid.body._links.scaRedirect).toBeDefined();
      const read = await b.send('get', `/v1/payments/sepa-credit-transfers/${paid.body.paymentId}/status`).expect(200);
      expect(read.body.transactionStatus).toBe('RJCT');
    }
    expect(await stateOf(a, owned)).toEqual(before);
  });

  if (FUNDS) {
    it("4: B's funds-confirmation consent on A's scenario IBAN cannot ask A's balance: 404 RESOURCE_UNKNOWN, as for an account the bank does not hold", async () => {
      const consent = await b
        .send('post', '/v2/consents/confirmation-of-funds', {}, JSON.stringify({ account: { iban: owned.iban } }))
        .expect(201);
      for (const amount of ['0.01', '1000000.00']) {
        const asked = await b
          .send(
            'post',
            '/v1/funds-confirmations',
            { 'Consent-ID': consent.body.consentId },
            JSON.stringify({ account: { iban: owned.iban }, instructedAmount: { currency: 'EUR', amount } }),
          )
          .expect(404);
        expect(asked.body).toEqual(bg(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A056E: account ${owned.iban} unknown`, 'account')));
      }
      // A asks the same of its own account and is answered.
      const own = await a
        .send('post', '/v2/consents/confirmation-of-funds', {}, JSON.stringify({ account: { iban: owned.iban } }))
        .expect(201);
      const answered = await a
        .send(
          'post',
          '/v1/funds-confirmations',
          { 'Consent-ID': own.body.consentId },
          JSON.stringify({ account: { iban: owned.iban }, instructedAmount: { currency: 'EUR', amount: '0.01' } }),
        )
        .expect(200);
      expect(answered.body).toEqual({ fundsAvailable: true });
    });
  }

  it("also: a payee check on A's scenario IBAN tells B nothing of A's holder (NOAP), and A its name", async () => {
    const check = (who: Client) =>
      who
        .send(
          'post',
          '/v1/payee-verifications',
          {},
          JSON.stringify({ partyAccount: { iban: owned.iban }, party: { name: 'Scenario Holder' } }),
        )
        .expect(200);
    expect((await check(b)).body).toEqual({
      partyNameMatch: 'NOAP',
      additionalInformation: "The payee's bank could not be asked: the name could not be checked.",
    });
    expect((await check(a)).body.partyNameMatch).toBe('MTCH');
  });

  it("5: an anonymous form post to the cockpit's clock moves nothing: it is sent to sign in", async () => {
    const today = (await a.send('get', '/sandbox/clock')).body.today;
    for (const [path, form] of [
      ['/cockpit/clock', 'today=2030-01-01'],
      ['/cockpit/clock/advance', 'by=month'],
    ]) {
      const response = await request(sandbox.http).post(path).type('form').send(form).expect(303);
      expect(response.headers.location).toBe('/cockpit');
    }
    expect((await a.send('get', '/sandbox/clock')).body.today).toBe(today);
  });

  it('6: a URL header with a zone id, credentials or anything Node cannot parse: 400 FORMAT_ERROR, nothing stored', async () => {
    const counts = async () =>
      sandbox.dataSource.query(
        'SELECT (SELECT COUNT(*) FROM consents) AS c, (SELECT COUNT(*) FROM payments) AS p, (SELECT COUNT(*) FROM notification_subscriptions) AS s',
      );
    const before = await counts();
    const consent = JSON.stringify({
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      combinedServiceIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
    });
    for (const [header, value, why] of [
      ['TPP-Notification-URI', 'http://[fe80::1%25lo]/', ''],
      ['TPP-Redirect-URI', 'https://[fe80::1%25eth0]:8443/back', ''],
      ['TPP-Nok-Redirect-URI', 'https://user:secret@tpp.example/nok', ' without credentials'],
    ]) {
      const expected = tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${header} must be an absolute http or https URL${why}`, header);
      expect((await b.send('post', '/v1/consents', { [header]: value }, consent).expect(400)).body).toEqual(bg(expected));
      expect(
        (
          await b
            .send(
              'post',
              '/v1/payments/sepa-credit-transfers',
              { [header]: value, 'PSU-IP-Address': '192.0.2.10' },
              JSON.stringify(sepaPayment('1.00')),
            )
            .expect(400)
        ).body,
      ).toEqual(bg(expected));
      if (FUNDS)
        expect(
          (
            await b
              .send('post', '/v2/consents/confirmation-of-funds', { [header]: value }, JSON.stringify({ account: { iban: MARIANNE } }))
              .expect(400)
          ).body,
        ).toEqual(bg(expected));
    }
    expect(await counts()).toEqual(before);
  });
});

describe("isolation on the holder's side, AUTH_MODE=strict (berlin-group, SCA_MODE=redirect)", () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect', AUTH_MODE: 'strict' });

  it("the SCA page of B's consent on A's scenario account names no account holder; A's own page does", async () => {
    const a = await issueToken(sandbox.http);
    const b = await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2');
    const body = { accounts: [{ name: 'Scenario Holder', balances: { interimAvailable: '1.00', forwardAvailable: '1.00' } }] };
    const { accounts } = (await request(sandbox.http).post('/sandbox/scenarios').set('Authorization', `Bearer ${a}`).send(body).expect(201))
      .body;
    const page = async (token: string) => {
      const consent = {
        access: { balances: [{ iban: accounts[0].iban }] },
        recurringIndicator: true,
        combinedServiceIndicator: false,
        validUntil: '2026-06-30',
        frequencyPerDay: 4,
      };
      const created = await request(sandbox.http)
        .post('/v1/consents')
        .set(tppHeaders({ Authorization: `Bearer ${token}` }))
        .send(consent)
        .expect(201);
      const link = new URL(created.body._links.scaRedirect.href);
      return (
        await request(sandbox.http)
          .get(link.pathname + link.search)
          .expect(200)
      ).text;
    };
    expect(await page(a)).toContain('Scenario Holder');
    const theirs = await page(b);
    expect(theirs).toContain(accounts[0].iban);
    expect(theirs).not.toContain('Scenario Holder');
  });
});

describe('the threat table (docs/security.md): signed requests (berlin-group, tpp.signatures: required, tpp.qwac: header)', () => {
  const sandbox = useSandbox({
    PROFILE: profileWith('threats', 'berlin-group', '  signatures: required\n  qwac: header\n  revoked: CERTIFICATE_REVOKED\n'),
    TRUST_PROXY: 'loopback',
    SCA_MODE: 'redirect',
  });
  let ca: string;
  let qwac: Issued;
  const call = (
    method: Method,
    path: string,
    signer: Issued,
    signing: Signing = {},
    options: { body?: object; extra?: Record<string, string>; qwac?: Issued } = {},
  ) => {
    const text = options.body === undefined ? '' : JSON.stringify(options.body);
    const headers = signed(
      signer,
      ca,
      text,
      tppHeaders({ 'X-SSL-Client-Cert': encodeURIComponent((options.qwac ?? qwac).certificate), ...options.extra }),
      signing,
    );
    return send(sandbox.http, method, path, headers, options.body === undefined ? undefined : text);
  };
  const VALID = 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2';
  beforeAll(async () => {
    ca = await caName(sandbox.http);
    qwac = await issue(sandbox.http, 'QWAC', ['PSP_AI', 'PSP_PI', 'PSP_IC']);
  });

  it('1: a PSP_PI certificate on account information, card accounts and the PIIS consent, in any spelling of the path: 401 ROLE_INVALID', async () => {
    const pis = await issue(sandbox.http, 'QSEAL', ['PSP_PI']);
    const cards = (await servedPaths(sandbox.http)).has('/v1/card-accounts') ? ['/v1/Card-Accounts'] : [];
    for (const path of ['/V1/ACCOUNTS', '/v1/accounts/', ...cards]) {
      const response = await call('get', path, pis, {}, { extra: { 'Consent-ID': VALID } }).expect(401);
      expect(response.body).toEqual(bg(roleInvalid(pis.serialNumber, 'PSP_PI', 'PSP_AI')));
    }
    if (!FUNDS) return;
    const consents = await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM consents');
    const piis = await call('post', '/V2/consents/confirmation-of-funds', pis, {}, { body: { account: { iban: MARIANNE } } }).expect(401);
    expect(piis.body).toEqual(bg(roleInvalid(pis.serialNumber, 'PSP_PI', 'PSP_IC')));
    expect(await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM consents')).toEqual(consents);
  });

  it("2: another client's every-role certificate in DER followed by the signer's PEM: 401 CERTIFICATE_INVALID, and so are two PEM blocks and trailing bytes", async () => {
    const all = await issue(sandbox.http, 'QSEAL', ['PSP_AI', 'PSP_PI', 'PSP_IC']);
    const signer = await issue(sandbox.http, 'QSEAL', ['PSP_AS']);
    const payments = await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM payments');
    const smuggled = Buffer.concat([Buffer.from(der(all.certificate), 'base64'), Buffer.from(signer.certificate)]).toString('base64');
    const unreadable = tppError(
      'CERTIFICATE_INVALID',
      '{sensitive} XS2A047E: the header holds no single X.509 certificate (base64 DER, or one PEM block)',
    );
    for (const certificate of [
      smuggled,
      `${all.certificate}${signer.certificate}`.replace(/\n/g, ' '),
      Buffer.concat([Buffer.from(der(signer.certificate), 'base64'), Buffer.from([0])]).toString('base64'),
    ]) {
      expect((await call('get', '/v1/accounts', signer, { certificate }, { extra: { 'Consent-ID': VALID } }).expect(401)).body).toEqual(
        bg(unreadable),
      );
      expect(
        (
          await call(
            'post',
            '/v1/payments/sepa-credit-transfers',
            signer,
            { certificate },
            { body: sepaPayment('1.00'), extra: { 'PSU-IP-Address': '192.0.2.10' } },
          ).expect(401)
        ).body,
      ).toEqual(bg(unreadable));
    }
    expect(await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM payments')).toEqual(payments);
    // One PEM block is one certificate: accepted, as base64 DER is.
    await call('get', '/v1/accounts', all, { certificate: all.certificate.replace(/\n/g, ' ') }, { extra: { 'Consent-ID': VALID } }).expect(
      200,
    );
  });

  it("7: a QWAC that signs, and a QSealC presented as the connection's certificate: 401 CERTIFICATE_INVALID", async () => {
    const seal = await issue(sandbox.http, 'QSEAL', ['PSP_AI']);
    const website = await issue(sandbox.http, 'QWAC', ['PSP_AI']);
    const qwacSigns = await call('get', '/v1/accounts', website, {}, { extra: { 'Consent-ID': VALID } }).expect(401);
    expect(qwacSigns.body).toEqual(
      bg(
        tppError(
          'CERTIFICATE_INVALID',
          `{sensitive} XS2A047E: the certificate ${website.serialNumber.toUpperCase()} is a QWAC, not a QSealC`,
        ),
      ),
    );
    const sealConnects = await call('get', '/v1/accounts', seal, {}, { extra: { 'Consent-ID': VALID }, qwac: seal }).expect(401);
    expect(sealConnects.body).toEqual(
      bg(
        tppError('CERTIFICATE_INVALID', `{sensitive} XS2A047E: the certificate ${seal.serialNumber.toUpperCase()} is a QSealC, not a QWAC`),
      ),
    );
  });

  it("8: a keyId whose CA is not the certificate's issuer: 401 SIGNATURE_INVALID; the issuer's name in another order, case, spacing or percent-encoding (as the yaml's example writes it) is the same name", async () => {
    const seal = await issue(sandbox.http, 'QSEAL', ['PSP_AI']);
    const evil = await call(
      'get',
      '/v1/accounts',
      seal,
      { keyId: `SN=${seal.serialNumber},CA=CN=Evil CA` },
      { extra: { 'Consent-ID': VALID } },
    ).expect(401);
    expect(evil.body).toEqual(
      bg(
        tppError(
          'SIGNATURE_INVALID',
          `{sensitive} XS2A044E: keyId SN=${seal.serialNumber},CA=CN=Evil CA does not name the issuer of the certificate sent (CA=${ca})`,
          'Signature',
        ),
      ),
    );
    const reordered = ca
      .split(',')
      .reverse()
      .map((part) => part.replace(/=(.*)$/, (_, value: string) => `=${value.toLowerCase()}`))
      .join(', ');
    await call(
      'get',
      '/v1/accounts',
      seal,
      { keyId: `SN=${seal.serialNumber},CA=${reordered}` },
      { extra: { 'Consent-ID': VALID } },
    ).expect(200);
    await call(
      'get',
      '/v1/accounts',
      seal,
      { keyId: `SN=${seal.serialNumber},CA=${ca.replaceAll(' ', '%20')}` },
      { extra: { 'Consent-ID': VALID } },
    ).expect(200);
    const malformed = await call(
      'get',
      '/v1/accounts',
      seal,
      { keyId: `SN=${seal.serialNumber},CA=CN=PSD2%2` },
      { extra: { 'Consent-ID': VALID } },
    ).expect(401);
    expect(malformed.body).toEqual(
      bg(
        tppError(
          'SIGNATURE_INVALID',
          `{sensitive} XS2A044E: keyId SN=${seal.serialNumber},CA=CN=PSD2%2 does not name the certificate sent (SN=${seal.serialNumber})`,
          'Signature',
        ),
      ),
    );
  });

  it('a revoked certificate in a profile of Berlin Group 1.3.16 (tpp.revoked): 401 CERTIFICATE_REVOKED', async () => {
    const seal = await issue(sandbox.http, 'QSEAL', ['PSP_AI']);
    await request(sandbox.http).post(`/sandbox/certificates/${seal.serialNumber}/revocation`).expect(200);
    const response = await call('get', '/v1/accounts', seal, {}, { extra: { 'Consent-ID': VALID } }).expect(401);
    expect(response.body).toEqual(
      bg(tppError('CERTIFICATE_REVOKED', `{sensitive} XS2A062E: the certificate ${seal.serialNumber.toUpperCase()} is revoked`)),
    );
  });
});

interface Client {
  token: string;
  /** A consent of its own, valid at once (SCA_MODE=auto). */
  consentId: string;
  send(method: Method, path: string, extra?: Record<string, string | undefined>, body?: string): request.Test;
}

async function client(sandbox: Sandbox, clientId: string, secret: string): Promise<Client> {
  const token = await issueToken(sandbox.http, clientId, secret);
  const send = (method: Method, path: string, extra: Record<string, string | undefined> = {}, body?: string) => {
    const headers = Object.fromEntries(
      Object.entries(tppHeaders({ Authorization: `Bearer ${token}`, ...extra })).filter(([, value]) => value !== undefined),
    ) as Record<string, string>;
    const call = request(sandbox.http)[method](path).set(headers);
    return body === undefined ? call : call.set('Content-Type', 'application/json').send(body);
  };
  const consent = await send(
    'post',
    '/v1/consents',
    {},
    JSON.stringify({
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      combinedServiceIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 100,
    }),
  ).expect(201);
  return { token, consentId: consent.body.consentId, send };
}

/** What client A owns: a scenario (accounts, a trusted payee, a card), a payment, a basket, a PIIS consent, a bulk payee check, a certificate. */
interface Owned {
  iban: string;
  ids: Record<string, string>;
}

/** The paths of the served document: a resource of a service the build lacks is not made (the removal proof runs this suite). */
async function servedPaths(http: App): Promise<Set<string>> {
  return new Set(Object.keys((await request(http).get('/docs-json').expect(200)).body.paths));
}

async function ownedBy(a: Client, served: Set<string>): Promise<Owned> {
  const scenario = (
    await a
      .send(
        'post',
        '/sandbox/scenarios',
        {},
        JSON.stringify({
          accounts: [
            {
              name: 'Scenario Holder',
              balances: { interimAvailable: '1000.00', forwardAvailable: '1000.00' },
              booked: [{ amount: '-1.00', bookingDate: '2026-03-01', counterpartyName: 'Shop', counterpartyIban: GEORG }],
            },
          ],
          trustedBeneficiaries: [{ creditorIban: GEORG, creditorName: 'Georg Mustermann' }],
          cardAccounts: [{ balances: { interimBooked: '-1.00' } }],
        }),
      )
      .expect(201)
  ).body;
  const iban = scenario.accounts[0].iban;
  // To a payee the holder does not trust: no exemption, so SCA is asked for.
  const untrusted = { debtorAccount: { iban }, creditorAccount: { iban: MARIANNE }, creditorName: 'Marianne Mustermann' };
  const payment = (
    await a
      .send(
        'post',
        '/v1/payments/sepa-credit-transfers',
        { 'PSU-IP-Address': '192.0.2.10' },
        JSON.stringify(sepaPayment('1.00', untrusted)),
      )
      .expect(201)
  ).body;
  const waiting = (
    await a
      .send(
        'post',
        '/v1/payments/sepa-credit-transfers',
        { 'PSU-IP-Address': '192.0.2.10', 'TPP-Explicit-Authorisation-Preferred': 'true' },
        JSON.stringify(sepaPayment('2.00', untrusted)),
      )
      .expect(201)
  ).body;
  const basket = served.has('/v1/signing-baskets')
    ? (await a.send('post', '/v1/signing-baskets', {}, JSON.stringify({ paymentIds: [waiting.paymentId] })).expect(201)).body
    : {};
  const basketAuthorisation = basket.basketId
    ? (await a.send('post', `/v1/signing-baskets/${basket.basketId}/authorisations`).expect(201)).body
    : {};
  const piis = served.has('/v2/consents/confirmation-of-funds')
    ? (await a.send('post', '/v2/consents/confirmation-of-funds', {}, JSON.stringify({ account: { iban } })).expect(201)).body
    : {};
  const bulk = (
    await a.send(
      'post',
      '/v1/bulk-payee-verifications',
      {},
      JSON.stringify({ partyVerificationRequests: [{ partyAccount: { iban }, party: { name: 'Scenario Holder' } }] }),
    )
  ).body;
  const certificate = (
    await a
      .send('post', '/sandbox/certificates', {}, JSON.stringify({ type: 'QSEAL', organisationName: 'A', roles: ['PSP_AI'] }))
      .expect(201)
  ).body;
  const snapshot = (await a.send('post', '/sandbox/world/snapshots', {}, JSON.stringify({ name: 'A' })).expect(201)).body;
  // Read once, so that auto mode's first read has settled what it settles before the state is taken.
  await a.send('get', `/v1/payments/sepa-credit-transfers/${payment.paymentId}`).expect(200);
  if (basket.basketId) await a.send('get', `/v1/signing-baskets/${basket.basketId}`).expect(200);
  const authorisationId = (await a.send('get', `/v1/payments/sepa-credit-transfers/${payment.paymentId}/authorisations`).expect(200)).body
    .authorisationIds[0];
  return {
    iban,
    ids: {
      consentId: scenario.consentId,
      accountId: iban,
      cardAccountId: scenario.cardAccounts?.[0].resourceId,
      paymentId: payment.paymentId,
      authorisationId,
      cancellationId: authorisationId,
      basketId: basket.basketId,
      basketAuthorisationId: basketAuthorisation.authorisationId,
      scenarioId: scenario.scenarioId,
      psuId: scenario.psuId,
      vopBulkId: bulk.vopBulkId ?? randomUUID(),
      serialNumber: certificate.serialNumber,
      snapshotId: snapshot.snapshotId,
      transactionId: `${scenario.scenarioId.slice(0, 8)}-A1-B1`,
      // A report's download (docs/formats.md): its query and format, readable by whoever holds the account's consent.
      downloadId: Buffer.from(JSON.stringify({ bookingStatus: 'booked', format: 'application/xml' })).toString('base64url'),
      piisConsentId: piis.consentId,
    },
  };
}

/** IDs of the same shapes that name nothing. */
function unknownIds(): Record<string, string> {
  const iban = ibanOf('AT', '99001' + String(Math.floor(Math.random() * 1e10)).padStart(11, '0'));
  return new Proxy(
    { accountId: iban, serialNumber: randomUUID().replace(/-/g, ''), psuId: `scenario-${randomUUID()}` } as Record<string, string>,
    {
      get: (target, name: string) => (target[name] ??= randomUUID()),
      has: () => true,
    },
  );
}

/** A's data as A reads it: its account, transactions, card, payment, basket, consents; and the one clock. */
async function stateOf(a: Client, { iban, ids }: Owned): Promise<unknown> {
  const read = async (path: string, extra: Record<string, string> = {}) => {
    const response = await a.send('get', path, { 'Consent-ID': ids.consentId, ...extra });
    return [response.status, response.body];
  };
  return [
    await read(`/v1/accounts/${iban}/balances`),
    await read(`/v1/accounts/${iban}/transactions?bookingStatus=both`),
    await read(`/v1/card-accounts/${ids.cardAccountId}/balances`),
    await read(`/v1/payments/sepa-credit-transfers/${ids.paymentId}/status`),
    await read(`/v1/signing-baskets/${ids.basketId}/status`),
    await read(`/v1/consents/${ids.consentId}/status`),
    await read(`/v2/consents/confirmation-of-funds/${ids.piisConsentId}/status`),
    await read('/sandbox/clock'),
    await read('/sandbox/world/snapshots'),
  ];
}

const codes = (body: { tppMessages?: { code: string }[]; apiClientMessages?: { code: string }[] }) =>
  (body.tppMessages ?? body.apiClientMessages)?.map(({ code }) => code) ?? [];

/** Bodies of the operations with an ID in their path that take one: good enough to reach the world check. */
const BODIES: Record<string, object> = {
  '/sandbox/sca/consents/{consentId}': { psuId: 'georg.mustermann', decision: 'approve' },
  '/sandbox/sca/payments/{paymentId}': { psuId: 'georg.mustermann', decision: 'approve' },
  '/sandbox/sca/payments/{paymentId}/cancellation': { psuId: 'georg.mustermann', decision: 'approve' },
  '/sandbox/sca/signing-baskets/{basketId}': { psuId: 'georg.mustermann', decision: 'approve' },
  '/sandbox/consents/{consentId}/revocation': { psuId: 'georg.mustermann' },
};

/** The operations that name an account in their body, each with a body naming `iban` where the account goes. */
const ACCOUNT_BODIES: Record<string, (iban: string) => object> = {
  '/v1/payments/sepa-credit-transfers': (iban) => sepaPayment('5.00', { debtorAccount: { iban } }),
  '/v1/consents': (iban) => ({
    access: { balances: [{ iban }], transactions: [{ iban }] },
    recurringIndicator: true,
    combinedServiceIndicator: false,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
  }),
  '/v2/consents/confirmation-of-funds': (iban) => ({ account: { iban } }),
  '/v1/payee-verifications': (iban) => ({ partyAccount: { iban }, party: { name: 'Scenario Holder' } }),
};
