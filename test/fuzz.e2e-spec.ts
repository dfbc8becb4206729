import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { openApiDocument } from '../src/app.factory';
import { messageRow, MessageId } from '../src/common/error-catalogue';
import { messageListOf } from '../src/http/berlin-group-answers';
import { VOP_MESSAGE_LIST } from '../src/verification-of-payee/vop-message-list';
import { ENGINE, secondConnection } from './support/engine';
import { GEORG, MARIANNE, SUSANNE, UNKNOWN_CONSENT, VALID_CONSENT } from './support/fixtures';
import { basic, issueToken, Sandbox, TODAY, tppError, tppHeaders, useSandbox } from './support/sandbox';

// A run (2,000 requests, each followed by a digest of every table where it may have written) takes
// about 12 s on SQLite and 20 s on PostgreSQL alone here; within a whole CI run, in one process beside every other suite,
// about three times as long. How fast is the benchmark's to say (docs/benchmark.md), not a timeout's.
jest.setTimeout(900_000);

/**
 * Requests per run: three runs on SQLite, one on PostgreSQL, 8,000 in all. They were 5,000 a run
 * until the whole CI run passed 40 minutes, the SQLite runs taking 541 s of it.
 */
const RUNS = 2_000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Operation {
  method: string;
  /** Path segments; `{name}` segments are filled from the live IDs. */
  template: string[];
  headers: Record<string, string>;
  query: Record<string, string>;
  body?: Json;
  form?: Record<string, string>;
  /** A pain.001 product's body (docs/formats.md): its document, sent as application/xml. */
  xml?: string;
}

interface Mutation {
  kind:
    | 'dropHeader'
    | 'setHeader'
    | 'query'
    | 'segment'
    | 'appendSegment'
    | 'bodyDelete'
    | 'bodySet'
    | 'bodyReplace'
    | 'rawBody'
    | 'oversize'
    | 'method'
    | 'xml';
  name?: string;
  value?: unknown;
  path?: number[];
  index?: number;
  /** How many characters of the pain.001 a splice takes out. */
  removed?: number;
  contentType?: string;
}

const eur = (amount: string) => ({ currency: 'EUR', amount });
const SEPA = {
  debtorAccount: { iban: MARIANNE },
  instructedAmount: eur('12.34'),
  creditorAccount: { iban: GEORG },
  creditorName: 'Georg Mustermann',
  remittanceInformationUnstructured: 'fuzz',
};
const BODIES: Record<string, { [key: string]: Json }> = {
  // additionalInformation: read where the profile lists trusted beneficiaries (berlin-group), stripped elsewhere.
  'POST /v1/consents': {
    access: {
      balances: [{ iban: MARIANNE }],
      transactions: [{ iban: GEORG }],
      additionalInformation: { trustedBeneficiaries: [{ iban: MARIANNE }] },
    },
    recurringIndicator: true,
    combinedServiceIndicator: false,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
  },
  'POST /v1/payments/sepa-credit-transfers': SEPA,
  'POST /v1/payments/instant-sepa-credit-transfers': SEPA,
  'POST /v1/payments/cross-border-credit-transfers': {
    ...SEPA,
    creditorAccount: { iban: 'GB29NWBK60161331926819' },
    instructedAmount: { currency: 'GBP', amount: '5.00' },
  },
  'POST /v1/bulk-payments/sepa-credit-transfers': {
    debtorAccount: { iban: MARIANNE },
    payments: [{ instructedAmount: eur('1.00'), creditorAccount: { iban: GEORG }, creditorName: 'Georg Mustermann' }],
  },
  'POST /v1/periodic-payments/sepa-credit-transfers': { ...SEPA, startDate: '2026-04-01', frequency: 'Monthly', dayOfExecution: '1' },
  'POST /sandbox/scenarios': {
    accounts: [
      {
        name: 'Fuzz Test',
        balances: { interimAvailable: '10.00', forwardAvailable: '10.00' },
        booked: [{ amount: '-1.00', bookingDate: '2026-03-01', counterpartyName: 'Shop', counterpartyIban: GEORG }],
      },
    ],
    trustedBeneficiaries: [{ creditorIban: GEORG, creditorName: 'Georg Mustermann' }],
    // Read where the profile shows card accounts (berlin-group), stripped elsewhere.
    cardAccounts: [
      { balances: { interimBooked: '-1.00' }, booked: [{ amount: '-1.00', transactionDate: '2026-03-01', transactionDetails: 'Shop' }] },
    ],
  },
  'POST /sandbox/sca/consents/{consentId}': { psuId: 'georg.mustermann', decision: 'approve' },
  'POST /sandbox/sca/payments/{paymentId}': { psuId: 'georg.mustermann', decision: 'deny' },
  'POST /sandbox/sca/payments/{paymentId}/cancellation': { psuId: 'georg.mustermann', decision: 'approve' },
  'PUT /sandbox/clock': { today: '2026-03-15' },
  'POST /v1/payee-verifications': {
    partyAccount: { iban: GEORG },
    party: { name: 'Goerg Mustermann', identification: { organisationId: { others: [{ identification: 'DE129273398' }] } } },
  },
  'POST /v1/bulk-payee-verifications': {
    partyVerificationRequests: [
      { uetr: '0b9c2a1e-0000-4000-8000-000000000001', partyAccount: { iban: GEORG }, party: { name: 'Georg Mustermann' } },
    ],
  },
  'POST /sandbox/clock/advance': { days: 0 },
  'POST /v2/consents/confirmation-of-funds': { account: { iban: MARIANNE }, cardNumber: '1234567891234', cardExpiryDate: '2030-12-31' },
  'POST /v1/funds-confirmations': { account: { iban: MARIANNE }, cardNumber: '1234567891234', instructedAmount: eur('12.34') },
  'POST /v1/signing-baskets': { paymentIds: ['3d9a81b3-a47d-4130-8765-a9c0ff861b99'], consentIds: [VALID_CONSENT] },
  'POST /sandbox/sca/signing-baskets/{basketId}': { psuId: 'georg.mustermann', decision: 'approve' },
};
/** The SCA pages are not in the OpenAPI document: listed here. */
const PAGE_QUERY: Record<string, string> = {
  consents: 'consent_id',
  payments: 'payment_id',
  'payments/cancellation': 'payment_id',
  'signing-baskets': 'basket_id',
};
const PAGES: Operation[] = Object.entries(PAGE_QUERY).flatMap(([page, parameter]) => [
  { method: 'GET', template: ['sca', ...page.split('/')], headers: {}, query: { [parameter]: '{id}' } },
  {
    method: 'POST',
    template: ['sca', ...page.split('/')],
    headers: {},
    query: {},
    form: { id: '{id}', psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve', _csrf: 'x.y' },
  },
]);
const HEADER_NAMES = [
  'Authorization',
  'X-Request-ID',
  'Content-Type',
  'Consent-ID',
  'PSU-IP-Address',
  'TPP-Redirect-URI',
  'TPP-Nok-Redirect-URI',
  'TPP-Notification-URI',
  'Client-VOP-Requested',
  'Client-VOP-Request-ID',
  'Client-Asynchronous-Process-Preferred',
  'Signature',
  'Digest',
  'TPP-Signature-Certificate',
  'PSU-ID',
  'Accept',
];
/** Values at and past the bounds of what is stored (the stored limits, below), and dates past the range both engines keep. */
const BOUNDARY_TEXTS = [
  'x'.repeat(64),
  'x'.repeat(65),
  ...[2000, 2001, 2048, 2049, 2083].map((length) => `https://tpp.example/${'x'.repeat(length - 20)}`),
];
const BOUNDARY_DATES = ['0000-01-01', '0999-12-31', '1000-01-01', '9999-12-31', '0000-01-01T00:00:00Z'];

/** The seed bank that checks a signature a request sends (tpp.signatures: optional), in a folder of its own. */
function signingProfile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-fuzz-'));
  writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\ntpp:\n  signatures: optional\n');
  return folder;
}

/** Every operation of the document, with what a well-behaved TPP would send. */
function operations(sandbox: Sandbox): Operation[] {
  const document = openApiDocument(sandbox.app);
  const listed = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(
      methods as Record<
        string,
        {
          parameters?: { in: string; name: string }[];
          requestBody?: { content: Record<string, { example?: string }> };
        }
      >,
    ).map(([method, operation]): Operation => {
      const xml = operation.requestBody?.content['application/xml']?.example;
      const key = `${method.toUpperCase()} ${path}`;
      const parameters = operation.parameters ?? [];
      const has = (name: string) => parameters.some((parameter) => parameter.in === 'header' && parameter.name === name);
      return {
        method: method.toUpperCase(),
        template: path.split('/').filter(Boolean),
        headers: {
          ...(/^\/v[12]\//.test(path) ? { 'X-Request-ID': '{uuid}' } : {}),
          ...(has('Consent-ID') ? { 'Consent-ID': '{consentId}' } : {}),
          ...(has('PSU-IP-Address') ? { 'PSU-IP-Address': '192.0.2.10' } : {}),
          ...(has('TPP-Redirect-URI') ? { 'TPP-Redirect-URI': 'https://tpp.example/back' } : {}),
          ...(has('Client-VOP-Requested') ? { 'Client-VOP-Requested': 'true' } : {}),
          ...(has('Client-Asynchronous-Process-Preferred') ? { 'Client-Asynchronous-Process-Preferred': 'true' } : {}),
        },
        query: path.endsWith('/transactions')
          ? { bookingStatus: 'both' }
          : /^\/v1\/(card-)?accounts/.test(path)
            ? { withBalance: 'true' }
            : {},
        ...(xml ? { xml } : {}),
        ...(key === 'POST /oauth2/token'
          ? { form: { grant_type: 'client_credentials' } }
          : BODIES[key] !== undefined
            ? { body: BODIES[key] }
            : {}),
      };
    }),
  );
  return [...listed, ...PAGES];
}

/** The live IDs a path parameter can take: real ones, and some that are unknown. */
interface LiveIds {
  consentId: string[];
  paymentId: string[];
  authorisationId: string[];
  scenarioId: string[];
  accountId: string[];
  transactionId: string[];
  product: string[];
  vopBulkId: string[];
  basketId: string[];
  cardAccountId: string[];
}

/**
 * What `database` sees of the commits made: SQLite's `PRAGMA data_version` changes at each commit of
 * another connection, such as the app's; PostgreSQL's snapshot (the transactions done and those
 * still running, in the whole cluster) changes at each commit anywhere. Equal before and after a
 * request, nothing was written (docs/development.md, "Where the time goes").
 */
async function commitsSeen(database: DataSource): Promise<string> {
  const [row] = (await database.query(
    ENGINE === 'postgres' ? 'SELECT pg_current_snapshot()::text AS seen' : 'SELECT data_version AS seen FROM pragma_data_version',
  )) as { seen: string | number }[];
  return String(row.seen);
}

/**
 * A digest of every row of every table, read as the engine stores it: equal digests, equal state.
 * Except what notifications' delivery writes on its own schedule, whatever request is being
 * answered: its attempts (retried 1, 2 and 4 s after a failed one, docs/notifications.md) and the
 * history's record of each. What a request writes (its events, the notifications they queue) is digested.
 */
async function digest(database: DataSource): Promise<string> {
  const hash = createHash('sha256');
  const tables = [...database.entityMetadatas].sort((a, b) => (a.tableName < b.tableName ? -1 : 1));
  const delivery: Record<string, string> = {
    notifications: 'SELECT "id" FROM "notifications"',
    events: `SELECT * FROM "events" WHERE "kind" <> 'notification'`,
  };
  for (const { tableName, primaryColumns } of tables) {
    hash.update(tableName);
    const order = primaryColumns.map(({ databaseName }) => `"${databaseName}"`).join(', ');
    const rows = (await database.query(`${delivery[tableName] ?? `SELECT * FROM "${tableName}"`} ORDER BY ${order}`)) as unknown[];
    for (const row of rows) hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}

/** A certificate (openssl's, of no CA the sandbox trusts), and the header values that hide a second one behind it (docs/security.md, the threat table). */
const PEM = execFileSync(
  'openssl',
  ['req', '-x509', '-newkey', 'rsa:1024', '-nodes', '-keyout', '/dev/null', '-subj', '/CN=Fuzz', '-days', '1'],
  { stdio: ['ignore', 'pipe', 'ignore'] },
).toString();
const DER = Buffer.from(PEM.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''), 'base64');
const SMUGGLED_CERTIFICATES = [
  `${PEM}${PEM}`.replace(/\n/g, ' '),
  Buffer.concat([DER, Buffer.from(PEM)]).toString('base64'),
  Buffer.concat([DER, Buffer.from([0])]).toString('base64'),
  encodeURIComponent(`${PEM}${PEM}`),
];

const headerValue = fc.oneof(
  fc.stringMatching(/^[\t\x20-\x7e]{0,60}$/),
  fc.constantFrom(
    '',
    ' ',
    'Bearer',
    'Bearer ',
    'Basic Og==',
    'null',
    '00000000-0000-0000-0000-000000000000',
    UNKNOWN_CONSENT,
    VALID_CONSENT,
    '::1',
    '999.1.1.1',
    'application/xml',
    'text/plain; charset=utf-16',
  ),
  // Signatures and certificates half right (docs/tpp-identity.md).
  fc.constantFrom(
    'keyId="SN=1A,CA=CN=PSD2 Sandbox Test CA",algorithm="rsa-sha256",headers="digest x-request-id",signature="AAAA"',
    'keyId="SN=1A",algorithm="hmac-sha256",headers="",signature=""',
    'keyId="x",signature="%%%"',
    'SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
    'SHA-512=',
    'MIIB',
    '-----BEGIN CERTIFICATE-----MIIBIjANBgkq-----END CERTIFICATE-----',
    'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UE',
    ...SMUGGLED_CERTIFICATES,
  ),
  // URLs that a validator may pass and WHATWG URL refuses, or that carry credentials.
  fc.constantFrom(
    'http://[fe80::1%25lo]/',
    'https://[fe80::1%eth0]:8443/x',
    'https://user:pw@tpp.example/',
    'http://[::1%2525x]/',
    'https://tpp.example:99999/',
  ),
  fc.uuid().map(String),
  fc.string({ minLength: 200, maxLength: 2000 }).map((value) => value.replace(/[^\x20-\x7e]/g, 'x')),
  fc.constantFrom(...BOUNDARY_TEXTS),
);
const segment = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '..',
    '%2e%2e',
    '%00',
    '%2F',
    'authorization_not_yet_available',
    MARIANNE,
    SUSANNE,
    'sepa-credit-transfers',
    'x'.repeat(300),
  ),
  fc.uuid().map(String),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('dropHeader' as const), name: fc.constantFrom(...HEADER_NAMES) }),
  fc.record({ kind: fc.constant('setHeader' as const), name: fc.constantFrom(...HEADER_NAMES), value: headerValue }),
  fc.record({
    kind: fc.constant('query' as const),
    name: fc.oneof(
      fc.constantFrom('withBalance', 'bookingStatus', 'dateFrom', 'dateTo', 'consent_id', 'payment_id'),
      fc.string({ maxLength: 10 }),
    ),
    value: fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
      fc.constantFrom('true', 'false', 'booked', 'both', '2019-03-01', '2026-02-30', '[]', '{}', ...BOUNDARY_DATES),
    ),
  }),
  fc.record({ kind: fc.constant('segment' as const), index: fc.nat(), value: segment }),
  fc.record({ kind: fc.constant('appendSegment' as const), value: segment }),
  fc.record({ kind: fc.constant('bodyDelete' as const), path: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('bodySet' as const),
    path: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(...BOUNDARY_DATES, ...BOUNDARY_TEXTS)),
  }),
  fc.record({ kind: fc.constant('bodyReplace' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    kind: fc.constant('rawBody' as const),
    contentType: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'text/xml; charset=latin1',
    ),
    value: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{', '{"access":', '[]', 'null', '"x"', '{"a":1}}', '\u0000', 'grant_type=client_credentials&grant_type[x]=1'),
    ),
  }),
  fc.record({ kind: fc.constant('oversize' as const) }),
  // A pain.001 cut and spliced: malformed, hostile (a DTD, entities, deep nesting) or merely wrong.
  fc.record({
    kind: fc.constant('xml' as const),
    index: fc.nat(),
    removed: fc.nat({ max: 60 }),
    value: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        '<!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
        '<!ENTITY a "aaaa">',
        '&e;',
        '&#0;',
        '&amp;',
        '<![CDATA[<x>]]>',
        ']]>',
        '<!-- -->',
        '<?xml version="1.0" encoding="UTF-16"?>',
        '<a>'.repeat(40),
        '</Document>',
        '<CdtTrfTxInf><PmtId><EndToEndId>X</EndToEndId></PmtId></CdtTrfTxInf>',
        '<InstdAmt Ccy="EUR">-1</InstdAmt>',
        '<InstdAmt Ccy="XXX">99999999999999999</InstdAmt>',
        '<ReqdExctnDt>0000-01-01</ReqdExctnDt>',
        '<NbOfTxs>999999999999999</NbOfTxs>',
        ' xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"',
        '\u0000',
      ),
    ),
  }),
  fc.record({ kind: fc.constant('method' as const), value: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') }),
);

/** Walks `path` (indexes taken modulo the keys found) and deletes or sets the last key. */
function mutateJson(body: Json | undefined, path: number[], change: { value?: Json } | 'delete'): Json | undefined {
  if (body === null || typeof body !== 'object') return change === 'delete' ? body : (change.value ?? null);
  const copy: Json = structuredClone(body);
  let node = copy as Record<string, Json>;
  for (const [depth, index] of path.entries()) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[index % keys.length];
    const last = depth === path.length - 1 || node[key] === null || typeof node[key] !== 'object';
    if (last) {
      if (change === 'delete') delete node[key];
      else node[key] = change.value ?? null;
      break;
    }
    node = node[key] as Record<string, Json>;
  }
  return copy;
}

interface Outgoing {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The operation with live IDs filled in, then the mutations applied. */
function build(operation: Operation, mutations: Mutation[], ids: LiveIds, token: string, pick: number): Outgoing {
  const choose = (name: string) => {
    const options = ids[name as keyof LiveIds] ?? ['x'];
    return options[pick % options.length];
  };
  const fill = (value: string) =>
    value.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'uuid' ? crypto.randomUUID() : name === 'id' ? choose(pick % 2 ? 'consentId' : 'paymentId') : choose(name),
    );
  let method = operation.method;
  const segments = operation.template.map((part) => encodeURIComponent(fill(part)));
  const headers: Record<string, string> = Object.fromEntries(Object.entries(operation.headers).map(([name, value]) => [name, fill(value)]));
  headers.Authorization = operation.template[0] === 'oauth2' ? basic('sandbox-tpp', 'sandbox-secret') : `Bearer ${token}`;
  const query = new URLSearchParams(Object.entries(operation.query).map(([name, value]): [string, string] => [name, fill(value)]));
  let body: Json | undefined = operation.body;
  let xml = operation.xml;
  let raw: string | undefined;
  let form = operation.form && Object.fromEntries(Object.entries(operation.form).map(([name, value]) => [name, fill(value)]));
  for (const change of mutations) {
    switch (change.kind) {
      case 'dropHeader':
        delete headers[change.name!];
        break;
      case 'setHeader':
        headers[change.name!] = change.value as string;
        break;
      case 'query':
        query.delete(change.name!);
        for (const value of ([] as string[]).concat(change.value as string | string[])) query.append(change.name!, value);
        break;
      case 'segment':
        segments[change.index! % segments.length] = change.value as string;
        break;
      case 'appendSegment':
        segments.push(change.value as string);
        break;
      case 'bodyDelete':
        if (form) delete form[Object.keys(form)[change.path![0] % Object.keys(form).length]];
        else body = mutateJson(body, change.path!, 'delete');
        break;
      case 'bodySet':
        if (form) form = { ...form, [Object.keys(form)[change.path![0] % Object.keys(form).length] ?? 'x']: JSON.stringify(change.value) };
        else body = mutateJson(body, change.path!, { value: change.value as Json });
        break;
      case 'bodyReplace':
        body = change.value as Json;
        form = undefined;
        xml = undefined;
        break;
      case 'xml':
        if (xml !== undefined) {
          const at = change.index! % (xml.length + 1);
          xml = `${xml.slice(0, at)}${change.value as string}${xml.slice(at + change.removed!)}`;
        }
        break;
      case 'rawBody':
        raw = change.value as string;
        headers['Content-Type'] = change.contentType!;
        break;
      case 'oversize':
        raw = JSON.stringify({
          ...(typeof body === 'object' && body && !Array.isArray(body) ? body : {}),
          padding: 'x'.repeat(101 * 1024),
        });
        headers['Content-Type'] = 'application/json';
        break;
      case 'method':
        method = change.value as string;
        break;
    }
  }
  if (raw === undefined && xml !== undefined) {
    raw = xml;
    headers['Content-Type'] ??= 'application/xml';
  } else if (raw === undefined && form) {
    raw = new URLSearchParams(form).toString();
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  } else if (raw === undefined && body !== undefined) {
    raw = JSON.stringify(body);
    headers['Content-Type'] ??= 'application/json';
  }
  const search = query.toString();
  return { method, path: `/${segments.join('/')}${search ? `?${search}` : ''}`, headers, body: raw };
}

function send(port: number, agent: Agent, outgoing: Outgoing): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    // A body always goes with its length: without it Node would not frame a GET's body at all.
    const headers =
      outgoing.body === undefined ? outgoing.headers : { ...outgoing.headers, 'Content-Length': String(Buffer.byteLength(outgoing.body)) };
    const call = httpRequest({ host: '127.0.0.1', port, agent, method: outgoing.method, path: outgoing.path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString() }),
      );
    });
    call.on('error', reject);
    call.end(outgoing.body);
  });
}

/**
 * What every refusal must look like: the Berlin Group body, its message numbers fitting the status
 * of the profile (docs/profiles.md); in berlin-group the nulls (`_links`, a message's `path`) are left out.
 */
function expectBerlinGroupError(status: number, text: string, oauth: boolean, berlinGroup: boolean, path: string): void {
  const body = JSON.parse(text);
  // The list's name: apiClientMessages on the Verification of Party operations in Berlin Group's answers (docs/verification-of-payee.md).
  const list = messageListOf([VOP_MESSAGE_LIST], path.split('?')[0], berlinGroup);
  const keys = [...(berlinGroup ? [] : ['_links']), ...(oauth ? ['error', 'error_description'] : []), list].sort();
  expect(Object.keys(body).sort()).toEqual(keys);
  if (!berlinGroup) expect(body._links).toBeNull();
  expect(body[list].length).toBeGreaterThan(0);
  for (const message of body[list]) {
    const withPath = !berlinGroup || typeof message.path === 'string';
    expect(Object.keys(message).sort()).toEqual(withPath ? ['category', 'code', 'path', 'text'] : ['category', 'code', 'text']);
    const id = /^\{sensitive\} (XS2A\d{3}E): ./.exec(message.text)?.[1] as MessageId;
    const row = messageRow(id);
    const expected = (berlinGroup && row.berlinGroup) || row;
    expect({ category: message.category, code: message.code, status }).toEqual({
      category: 'ERROR',
      code: expected.code,
      status: expected.status,
    });
    expect(withPath ? message.path === null || typeof message.path === 'string' : !('path' in message)).toBe(true);
  }
}

/**
 * The settings a run fuzzes. On PostgreSQL only berlin-group's: what the engine answers to bad
 * input is the same under every profile and mode, and that profile offers every operation, the
 * pain.001 products' XML bodies included.
 */
const SETTINGS: [string, Record<string, string>][] = [
  ['SCA_MODE=auto, AUTH_MODE=open', { SCA_MODE: 'auto' }],
  [
    'SCA_MODE=redirect, AUTH_MODE=strict, a signature checked when sent',
    { SCA_MODE: 'redirect', AUTH_MODE: 'strict', PROFILE: signingProfile() },
  ],
  ['PROFILE=berlin-group, SCA_MODE=auto', { PROFILE: 'berlin-group', SCA_MODE: 'auto' }],
];

describe.each(ENGINE === 'postgres' ? SETTINGS.slice(2) : SETTINGS)(
  `fuzz (%s): ${RUNS} random and mutated requests to every endpoint`,
  (_, settings: Record<string, string>) => {
    const sandbox = useSandbox(settings);
    const berlinGroup = settings.PROFILE === 'berlin-group';
    const created = berlinGroup ? 201 : 200;

    it('never answer 5xx, always refuse with the Berlin Group body and a fitting status, and a refusal changes nothing', async () => {
      const server = await sandbox.app.listen(0, '127.0.0.1');
      const port = (server.address() as AddressInfo).port;
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const database = await secondConnection(sandbox.database);
      try {
        // Live resources for the path parameters: a consent, payments of every service, a scenario.
        const token = await issueToken(sandbox.http);
        const as = (extra: Record<string, string> = {}) =>
          tppHeaders({ Authorization: `Bearer ${token}`, 'PSU-IP-Address': '192.0.2.10', ...extra });
        const consentId = (
          await request(sandbox.http)
            .post('/v1/consents')
            .set(as())
            .send({ ...BODIES['POST /v1/consents'], access: { availableAccounts: 'allAccounts' } })
            .expect(created)
        ).body.consentId;
        const paymentIds = [];
        for (const path of [
          '/v1/payments/sepa-credit-transfers',
          '/v1/bulk-payments/sepa-credit-transfers',
          '/v1/periodic-payments/sepa-credit-transfers',
        ]) {
          paymentIds.push((await request(sandbox.http).post(path).set(as()).send(BODIES[`POST ${path}`]).expect(created)).body.paymentId);
        }
        const [authorisationId] = (
          await request(sandbox.http).get(`/v1/payments/sepa-credit-transfers/${paymentIds[0]}/authorisations`).set(as()).expect(200)
        ).body.authorisationIds;
        const vopBulkId = (
          await request(sandbox.http)
            .post('/v1/bulk-payee-verifications')
            .set(as({ 'Client-Asynchronous-Process-Preferred': 'true' }))
            .send(BODIES['POST /v1/bulk-payee-verifications'])
            .expect(202)
        ).body.vopBulkId;
        // The berlin-group profile's confirmation of funds: its consent is a consent ID too.
        const basketIds = berlinGroup
          ? [
              (
                await request(sandbox.http)
                  .post('/v1/signing-baskets')
                  .set(as())
                  .send({ paymentIds: [paymentIds[0]] })
                  .expect(201)
              ).body.basketId,
            ]
          : [];
        const fundsConsentIds = berlinGroup
          ? [
              (
                await request(sandbox.http)
                  .post('/v2/consents/confirmation-of-funds')
                  .set(as())
                  .send(BODIES['POST /v2/consents/confirmation-of-funds'])
                  .expect(201)
              ).body.consentId,
            ]
          : [];
        const scenario = (
          await request(sandbox.http)
            .post('/sandbox/scenarios')
            .set('Authorization', `Bearer ${token}`)
            .send(BODIES['POST /sandbox/scenarios'])
            .expect(201)
        ).body;
        const ids: LiveIds = {
          consentId: [consentId, VALID_CONSENT, scenario.consentId, UNKNOWN_CONSENT, ...fundsConsentIds],
          paymentId: [...paymentIds, crypto.randomUUID()],
          authorisationId: [authorisationId, 'authorization_not_yet_available', crypto.randomUUID()],
          scenarioId: [scenario.scenarioId, crypto.randomUUID()],
          accountId: [MARIANNE, GEORG, scenario.accounts[0].iban, SUSANNE],
          transactionId: ['1511-B01', '1511-P01', '1511-S01', '0017-B01', 'unknown-transaction'],
          product: [
            'sepa-credit-transfers',
            'instant-sepa-credit-transfers',
            'cross-border-credit-transfers',
            'pain.001-sepa-credit-transfers',
          ],
          vopBulkId: [vopBulkId, crypto.randomUUID()],
          basketId: [...basketIds, crypto.randomUUID()],
          cardAccountId: [
            'card-georg-visa',
            'card-susanne-mastercard',
            ...(scenario.cardAccounts ?? []).map(({ resourceId }: { resourceId: string }) => resourceId),
            crypto.randomUUID(),
          ],
        };
        const all = operations(sandbox);
        // The digest of the state, and the commits seen before it was read: where none is seen since,
        // the state is that digest still.
        let seen = await commitsSeen(database);
        let state = await digest(database);
        const statuses: Record<number, number> = {};

        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...all), fc.array(mutation, { maxLength: 3 }), fc.nat(), async (operation, mutations, pick) => {
            const outgoing = build(operation, mutations, ids, token, pick);
            const response = await send(port, agent, outgoing);
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
            const where = `${outgoing.method} ${outgoing.path} -> ${response.status}: ${response.text.slice(0, 300)}`;
            expect({ where, serverError: response.status >= 500 }).toEqual({ where, serverError: false });
            const now = await commitsSeen(database);
            const after = now === seen ? state : await digest(database);
            if (response.status >= 400) {
              // The SCA pages answer the account holder in HTML; what never reaches a page (an
              // unreadable body, an unknown route or method) gets the JSON error like any other.
              const page = response.headers['content-type'] === 'text/html; charset=utf-8' && outgoing.path.startsWith('/sca/');
              if (!page) {
                expect({ where, type: response.headers['content-type'] }).toEqual({ where, type: 'application/json; charset=utf-8' });
                expectBerlinGroupError(
                  response.status,
                  response.text,
                  (outgoing.method === 'POST' && /^\/oauth2\/token\/?(\?|$)/.test(outgoing.path)) ||
                    /^\/register(\/[^/?]*)?\/?(\?|$)/.test(outgoing.path),
                  berlinGroup,
                  outgoing.path,
                );
              }
              expect({ where, changed: after !== state }).toEqual({ where, changed: false });
            }
            [seen, state] = [now, after];
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
        // Both sides of the property were exercised: accepted requests and refusals of several kinds.
        const refusals = Object.keys(statuses).filter((status) => Number(status) >= 400);
        expect(refusals.length).toBeGreaterThanOrEqual(5);
        expect(Object.keys(statuses).some((status) => Number(status) < 300)).toBe(true);
      } finally {
        await database.destroy();
        agent.destroy();
      }
    });
  },
);

/**
 * The bounds of what the sandbox stores and queries (docs/security.md, "Bad input"), on each
 * engine: the longest value is taken, one more is the same 400 on SQLite and PostgreSQL, which
 * would store it or fail; each bound is in the served document.
 */
describe('the stored limits: the same 400 on both engines, declared in the served document', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const url = (length: number) => `https://tpp.example/${'x'.repeat(length - 20)}`;
  const consent = (headers: Record<string, string>) =>
    request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders({ 'TPP-Redirect-Preferred': 'false', 'PSU-ID': 'georg.mustermann', ...headers }))
      .send(BODIES['POST /v1/consents']);
  const refused = (name: string, text: string) => tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${text}`, name);

  it.each([
    ['PSU-ID', 64, (length: number) => 'x'.repeat(length), [65, 300]],
    ['TPP-Redirect-URI', 2048, url, [2049, 2083]],
    ['TPP-Nok-Redirect-URI', 2048, url, [2049, 2083]],
    ['TPP-Notification-URI', 2000, url, [2001, 2083]],
  ])('%s: %i characters are stored, more are refused before anything is', async (name, bound, value, longer) => {
    const parameter = openApiDocument(sandbox.app).paths['/v1/consents'].post!.parameters!.find(
      (each) => 'name' in each && each.name === name,
    );
    expect(parameter).toMatchObject({ in: 'header', schema: { type: 'string', maxLength: bound } });
    await consent({ [name]: value(bound) }).expect(200);
    const database = await secondConnection(sandbox.database);
    try {
      const before = await digest(database);
      for (const length of longer)
        expect((await consent({ [name]: value(length) }).expect(400)).body).toEqualBody(
          refused(name, `${name} must not be longer than ${bound} characters`),
        );
      expect(await digest(database)).toBe(before);
    } finally {
      await database.destroy();
    }
  });

  it('a date is from 1000-01-01 to 9999-12-31 where it is set or queried, and the document says so', async () => {
    const document = openApiDocument(sandbox.app);
    const text = (field: string) => `${field} must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31`;
    for (const today of ['0000-01-01', '0999-12-31']) {
      expect((await request(sandbox.http).put('/sandbox/clock').send({ today }).expect(400)).body).toEqualBody(
        refused('today', text('today')),
      );
    }
    expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: TODAY });
    const transactions = (query: string) =>
      request(sandbox.http)
        .get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked&${query}`)
        .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }));
    expect((await transactions('dateFrom=0000-01-01').expect(400)).body).toEqualBody(refused('dateFrom', text('dateFrom')));
    expect((await transactions('dateTo=0000-12-31').expect(400)).body).toEqualBody(refused('dateTo', text('dateTo')));
    await transactions('dateFrom=1000-01-01&dateTo=9999-12-31').expect(200);
    await request(sandbox.http).put('/sandbox/clock').send({ today: '1000-01-01' }).expect(200);
    await request(sandbox.http).put('/sandbox/clock').send({ today: TODAY }).expect(200);
    const dateFrom = document.paths['/v1/accounts/{accountId}/transactions'].get!.parameters!.find(
      (each) => 'name' in each && each.name === 'dateFrom',
    );
    expect(dateFrom).toMatchObject({
      in: 'query',
      schema: { type: 'string', format: 'date', pattern: '^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}$' },
    });
    expect(document.components!.schemas!.ClockDto).toMatchObject({
      properties: { today: { type: 'string', format: 'date', pattern: '^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}$' } },
    });
  });
});
