import type { AnswerStyle } from './answer-style';

/** One message: the name the code refuses with, its status and code (where Berlin Group's differ, theirs too), and when it is answered. */
export interface MessageRow {
  name: string;
  status: number;
  code: string;
  berlinGroup?: { status: number; code: string };
  when: string;
}

/**
 * Every error the core answers with, one row per Berlin Group message number (docs/errors.md).
 * 004, 005, 016 and 017 are the bank's own numbers; the rest are ours. A service registers its
 * own rows (SandboxService.messages) and declares their numbers in ServiceMessages.
 */
export const ERROR_CATALOGUE = {
  XS2A001E: {
    name: 'formatError',
    status: 400,
    code: 'FORMAT_ERROR',
    when: 'a header, query parameter or body field is missing or malformed',
  },
  XS2A002E: {
    name: 'malformedRequest',
    status: 400,
    code: 'FORMAT_ERROR',
    when: 'the body is not well-formed JSON (or XML, where a pain.001 is sent), holds a DTD, or nests too deep; or the URL or the HTTP request itself is not well-formed',
  },
  XS2A003E: {
    name: 'bodyTooLarge',
    status: 413,
    code: 'FORMAT_ERROR',
    berlinGroup: { status: 400, code: 'FORMAT_ERROR' },
    when: 'the body is larger than 100 KiB; `PROFILE=berlin-group`: 400 (the yaml has no 413)',
  },
  XS2A004E: { name: 'transactionsConsentExpired', status: 401, code: 'CONSENT_EXPIRED', when: 'the consent has expired (transactions)' },
  XS2A005E: {
    name: 'consentExpired',
    status: 401,
    code: 'CONSENT_EXPIRED',
    when: 'the consent has expired (account list, account details, balances)',
  },
  XS2A006E: {
    name: 'frequencyUsedUp',
    status: 401,
    code: 'CONSENT_UNKNOWN',
    berlinGroup: { status: 429, code: 'ACCESS_EXCEEDED' },
    when: "the consent's `frequencyPerDay` is used up for this account today (requests without `PSU-IP-Address`); `PROFILE=berlin-group`: 429 `ACCESS_EXCEEDED`",
  },
  XS2A007E: {
    name: 'tokenMissing',
    status: 401,
    code: 'TOKEN_INVALID',
    when: 'no `Authorization: Bearer <token>` header with a non-empty token',
  },
  XS2A008E: {
    name: 'consentNotValid',
    status: 401,
    code: 'CONSENT_INVALID',
    when: 'the consent is not `valid` (received, rejected, terminatedByTpp, revokedByPsu)',
  },
  XS2A009E: {
    name: 'serviceNotGranted',
    status: 401,
    code: 'CONSENT_INVALID',
    when: 'the consent does not grant this service (balances or transactions) on the account',
  },
  XS2A010E: { name: 'periodInvalid', status: 400, code: 'PERIOD_INVALID', when: '`dateFrom` is after `dateTo`' },
  XS2A011E: {
    name: 'consentAlreadyFinal',
    status: 409,
    code: 'STATUS_INVALID',
    when: 'the consent is already in a final status and cannot be deleted',
  },
  XS2A012E: { name: 'routeUnknown', status: 404, code: 'RESOURCE_UNKNOWN', when: 'no such route' },
  XS2A013E: {
    name: 'internalError',
    status: 500,
    code: 'INTERNAL_SERVER_ERROR',
    when: 'an unexpected fault of the sandbox (a bug: please report it)',
  },
  XS2A014E: {
    name: 'productUnknown',
    status: 404,
    code: 'PRODUCT_UNKNOWN',
    when: 'the payment service does not offer this payment product',
  },
  XS2A015E: {
    name: 'paymentUnknown',
    status: 404,
    code: 'RESOURCE_UNKNOWN',
    when: 'no payment with this ID under this service and product',
  },
  XS2A016E: {
    name: 'accountUnknown',
    status: 404,
    code: 'RESOURCE_UNKNOWN',
    when: 'the account does not exist or is not part of the consent',
  },
  XS2A017E: { name: 'consentUnknown', status: 403, code: 'CONSENT_UNKNOWN', when: 'no consent with this Consent-ID' },
  XS2A018E: {
    name: 'cancellationInvalid',
    status: 405,
    code: 'CANCELLATION_INVALID',
    when: 'the payment cannot be cancelled: instant, or already ACSP (a periodic one: with no instalment to come), RJCT or CANC',
  },
  XS2A019E: {
    name: 'executionDateInvalid',
    status: 400,
    code: 'EXECUTION_DATE_INVALID',
    when: '`requestedExecutionDate` or a periodic `startDate` is before today',
  },
  XS2A020E: {
    name: 'authorisationUnknown',
    status: 404,
    code: 'RESOURCE_UNKNOWN',
    when: 'no such authorisation of this consent or payment',
  },
  XS2A021E: {
    name: 'notWaiting',
    status: 409,
    code: 'STATUS_INVALID',
    when: 'the consent or payment is not waiting for this authorisation or decision',
  },
  XS2A022E: {
    name: 'psuCredentialsInvalid',
    status: 401,
    code: 'PSU_CREDENTIALS_INVALID',
    when: 'unknown PSU, wrong password, or a PSU who does not hold the accounts concerned',
  },
  XS2A023E: { name: 'scenarioUnknown', status: 404, code: 'RESOURCE_UNKNOWN', when: 'no scenario with this ID' },
  XS2A024E: {
    name: 'tokenUnknown',
    status: 401,
    code: 'TOKEN_INVALID',
    when: 'the bearer token was not issued by the sandbox (`AUTH_MODE=strict`)',
  },
  XS2A025E: { name: 'tokenExpired', status: 401, code: 'TOKEN_EXPIRED', when: 'the bearer token has expired (`AUTH_MODE=strict`)' },
  XS2A026E: {
    name: 'clientUnauthenticated',
    status: 401,
    code: 'TOKEN_INVALID',
    when: 'token request: no client credentials (HTTP Basic or form), a wrong secret, or (`AUTH_MODE=strict`) an unknown client (OAuth `invalid_client`)',
  },
  XS2A027E: {
    name: 'tokenRequestMalformed',
    status: 400,
    code: 'FORMAT_ERROR',
    when: 'token request: `grant_type` missing or client credentials sent both with HTTP Basic and in the form (OAuth `invalid_request`), or a grant other than `client_credentials` (`unsupported_grant_type`)',
  },
  XS2A028E: { name: 'headersTooLarge', status: 431, code: 'FORMAT_ERROR', when: 'the request headers are larger than 16 KiB' },
  XS2A029E: {
    name: 'storageUnavailable',
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    when: 'the database is full, locked or failing (on a write or a read); nothing changed, try again',
  },
  XS2A030E: {
    name: 'neverCancellable',
    status: 405,
    code: 'SERVICE_INVALID',
    when: 'a cancellation authorisation of a payment that can never be cancelled (instant)',
  },
  XS2A031E: {
    name: 'redirectTakesNoPsuData',
    status: 405,
    code: 'SERVICE_INVALID',
    when: 'PUT on an authorisation of the redirect approach, which updates no PSU data (the SCA page decides)',
  },
  XS2A032E: {
    name: 'transactionUnknown',
    status: 404,
    code: 'RESOURCE_UNKNOWN',
    when: 'transaction details: no booked or pending transaction with this ID on the account',
  },
  XS2A033E: {
    name: 'psuBlocked',
    status: 403,
    code: 'SERVICE_BLOCKED',
    when: 'the PSU is blocked by the bank (`blocked.mustermann`): no authorisation of theirs goes on',
  },
  XS2A034E: {
    name: 'scaFailed',
    status: 400,
    code: 'SCA_INVALID',
    when: 'update PSU data on an authorisation that failed (three wrong passwords or TANs): start a new one',
  },
  XS2A035E: {
    name: 'scaMethodUnknown',
    status: 400,
    code: 'SCA_METHOD_UNKNOWN',
    when: "`authenticationMethodId` names none of the PSU's SCA methods",
  },
  XS2A036E: {
    name: 'stepInvalid',
    status: 409,
    code: 'STATUS_INVALID',
    when: 'update PSU data: the authorisation is not at the step the body is for (a TAN before the password, anything after finalised)',
  },
  XS2A037E: {
    name: 'maintenance',
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    when: 'the bank is in maintenance (`PUT /sandbox/conditions`, or the `X-Sandbox-Maintenance: true` header): nothing changed, try again later',
  },
  XS2A038E: {
    name: 'notificationHostRefused',
    status: 400,
    code: 'FORMAT_ERROR',
    when: '`TPP-Notification-URI` names a host on a private, loopback or reserved network that the sandbox may not notify (`NOTIFICATION_ALLOWED_HOSTS`): nothing is created',
  },
  XS2A039E: {
    name: 'vopRequestUnknown',
    status: 400,
    code: 'FORMAT_ERROR',
    when: '`Client-VOP-Request-ID` names no dedicated payee check of this client, or one of another creditor',
  },
  XS2A040E: {
    name: 'payeeNotAwaited',
    status: 409,
    code: 'STATUS_INVALID',
    when: 'creditor confirmation: the payment is not waiting for the payer to confirm the payee (not `RVCM` or `RVNC`)',
  },
  XS2A041E: {
    name: 'vopOff',
    status: 405,
    code: 'SERVICE_INVALID',
    when: 'a dedicated payee check where the profile turns Verification of Payee off (`vop.mode: off`)',
  },
  XS2A042E: { name: 'bulkPayeeCheckUnknown', status: 404, code: 'RESOURCE_UNKNOWN', when: 'no bulk payee check with this `vopBulkId`' },
  XS2A043E: {
    name: 'signatureMissing',
    status: 401,
    code: 'SIGNATURE_MISSING',
    when: '`tpp.signatures: required`, and the request has no `Signature` header',
  },
  XS2A044E: {
    name: 'signatureInvalid',
    status: 401,
    code: 'SIGNATURE_INVALID',
    when: 'the `Signature` header is malformed, its algorithm is none of `rsa-sha256`, `rsa-sha512`, `sha-256`, `sha-512`, names another certificate than `TPP-Signature-Certificate`, leaves out a header it must cover, or does not verify; or its `X-Request-ID` was signed for an earlier request with the same certificate',
  },
  XS2A045E: {
    name: 'digestInvalid',
    status: 401,
    code: 'SIGNATURE_INVALID',
    when: 'a signed request without `Digest`, or with one that is not the SHA-256 or SHA-512 hash of its body',
  },
  XS2A046E: {
    name: 'certificateMissing',
    status: 401,
    code: 'CERTIFICATE_MISSING',
    when: 'a signed request without `TPP-Signature-Certificate`, or (`tpp.qwac`) a request without its QWAC',
  },
  XS2A047E: {
    name: 'certificateInvalid',
    status: 401,
    code: 'CERTIFICATE_INVALID',
    when: "the header holds no single certificate, the certificate is of the wrong type for its use (a QWAC that signs, a QSealC as the connection's), is issued neither by the sandbox CA nor by one the profile trusts, or (`AUTH_MODE=strict`) was issued to another client than the token's",
  },
  XS2A048E: {
    name: 'certificateExpired',
    status: 401,
    code: 'CERTIFICATE_EXPIRED',
    when: 'the certificate is not valid on the sandbox today (expired, or not yet valid)',
  },
  XS2A049E: {
    name: 'certificateRevoke',
    status: 401,
    code: 'CERTIFICATE_REVOKE',
    when: 'the certificate is revoked (`POST /sandbox/certificates/{serialNumber}/revocation`), as Berlin Group 1.3.11 spells it',
  },
  XS2A050E: {
    name: 'roleInvalid',
    status: 401,
    code: 'ROLE_INVALID',
    when: 'the certificate lacks the PSD2 role its route declares: `PSP_AI` for consents, accounts, card accounts and trusted beneficiaries, `PSP_IC` for the confirmation of funds and its consents, `PSP_PI` for payments and signing baskets, `VOP_RS` (or `PSP_PI`) for payee checks; `PSP_CB` and `PSP_PA` may call any',
  },
  XS2A051E: {
    name: 'certificateUnknown',
    status: 404,
    code: 'RESOURCE_UNKNOWN',
    when: 'no certificate the sandbox issued (to this client) with this serial number',
  },
  XS2A062E: {
    name: 'certificateRevoked',
    status: 401,
    code: 'CERTIFICATE_REVOKED',
    when: 'the certificate is revoked, as Berlin Group 1.3.16 spells it: where the profile says `tpp.revoked: CERTIFICATE_REVOKED`',
  },
  XS2A063E: {
    name: 'tokenOrCertificateMissing',
    status: 401,
    code: 'CERTIFICATE_MISSING',
    when: '`tpp.oauth: optional`, `AUTH_MODE=strict`: a request with neither a bearer token nor a certificate (a QWAC, or the QSealC of a signed request)',
  },
  XS2A064E: {
    name: 'certificateOfNoClient',
    status: 401,
    code: 'CERTIFICATE_INVALID',
    when: '`tpp.oauth: optional`, `AUTH_MODE=strict`: a request without a bearer token whose certificate the sandbox issued to no client',
  },
  XS2A070E: {
    name: 'clientMetadataInvalid',
    status: 400,
    code: 'FORMAT_ERROR',
    when: 'client registration (`POST /register`): metadata missing, malformed or unknown, a redirect URI that is not https, a certificate not issued by the sandbox CA (OAuth `invalid_client_metadata`, `invalid_redirect_uri`)',
  },
  XS2A071E: {
    name: 'registrationTokenInvalid',
    status: 401,
    code: 'TOKEN_INVALID',
    when: "client registration (`/register/{clientId}`): no registration access token, or not this client's (OAuth `invalid_token`)",
  },
  XS2A072E: {
    name: 'registrationClosed',
    status: 403,
    code: 'SERVICE_BLOCKED',
    when: 'client registration: the profile closes it (`tpp.registration: closed`)',
  },
  XS2A073E: {
    name: 'tooManySignIns',
    status: 429,
    code: 'ACCESS_EXCEEDED',
    when: 'a sign-in (the token endpoint, the cockpit, the permission dashboard) after 5 failed ones of the same client or PSU from the same address within 15 minutes, until the window ends (`Retry-After`, OAuth `slow_down`)',
  },
  XS2A074E: {
    name: 'tooManyRegistrations',
    status: 429,
    code: 'ACCESS_EXCEEDED',
    when: 'client registration: `REGISTRATIONS_PER_HOUR` clients registered from the same address within the hour, until it ends (`Retry-After`, OAuth `slow_down`)',
  },
  XS2A075E: {
    name: 'worldFull',
    status: 429,
    code: 'ACCESS_EXCEEDED',
    when: 'a creation (a consent, payment, basket, payee check, scenario, certificate) in a world that stores `WORLD_MAX_RESOURCES` resources already: reset it, restore a snapshot, or delete some',
  },
  XS2A076E: { name: 'snapshotUnknown', status: 404, code: 'RESOURCE_UNKNOWN', when: "no snapshot with this ID in the caller's world" },
  XS2A077E: {
    name: 'snapshotsFull',
    status: 429,
    code: 'ACCESS_EXCEEDED',
    when: 'a snapshot of a world that keeps 10 snapshots already, or whose state is more than 50,000 rows: delete a snapshot, or reset the world',
  },
  XS2A078E: {
    name: 'snapshotFixed',
    status: 409,
    code: 'STATUS_INVALID',
    when: 'deleting the snapshot every world has, `as new`: it stays',
  },
  XS2A079E: {
    name: 'worldChanged',
    status: 409,
    code: 'STATUS_INVALID',
    when: "a request that writes to what a reset or restore of the client's world forgot while it ran: send it again",
  },
  XS2A080E: {
    name: 'ticketMissing',
    status: 403,
    code: 'SERVICE_BLOCKED',
    when: "AUTH_MODE=strict: the revocation page opened without a client's ticket (`POST /sandbox/consents/{consentId}/revocation-links`), or with an expired one",
  },
  XS2A081E: {
    name: 'requestedFormatsInvalid',
    status: 406,
    code: 'REQUESTED_FORMATS_INVALID',
    when: 'the Accept header names no media type the operation offers in this profile (docs/formats.md)',
  },
  XS2A082E: {
    name: 'downloadUnknown',
    status: 404,
    code: 'RESOURCE_UNKNOWN',
    when: 'no transaction report download with this ID, or one of a format the profile does not offer',
  },
} as const satisfies Record<string, MessageRow>;

/** The numbers of the services' messages, with their names: each service declares its own here by declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the services' declarations
export interface ServiceMessages {}

export type MessageId = keyof typeof ERROR_CATALOGUE | keyof ServiceMessages;

/** The name of each message, the core's and the services': what the code refuses with. */
type Numbers = { [Id in keyof typeof ERROR_CATALOGUE as (typeof ERROR_CATALOGUE)[Id]['name']]: Id } & {
  [Id in keyof ServiceMessages as ServiceMessages[Id] & string]: Id;
};
export type MessageName = keyof Numbers;

/** A service's rows: a number it declared takes its declared name (ServiceMessages). */
export type ServiceMessageRows = { [Id in keyof ServiceMessages]?: MessageRow & { name: ServiceMessages[Id] } } & Record<
  string,
  MessageRow
>;

const rows = new Map<string, MessageRow>(Object.entries(ERROR_CATALOGUE));
const numbers = new Map<string, MessageId>(Object.entries(ERROR_CATALOGUE).map(([id, { name }]) => [name, id as MessageId]));

/** Adds a service's rows; a number or a name already taken by another row is a bug, and stops the start. */
export function registerMessages(messages: Record<string, MessageRow>): void {
  for (const [id, row] of Object.entries(messages)) {
    if (rows.has(id) && rows.get(id) !== row) throw new Error(`${id} is taken twice in the error catalogue`);
    if (numbers.has(row.name) && numbers.get(row.name) !== id) throw new Error(`${row.name} names two messages of the error catalogue`);
    rows.set(id, row);
    numbers.set(row.name, id as MessageId);
  }
}

/** One failing condition by its message's name (`path`: the field, header or parameter at fault). */
export function detail(name: MessageName, description: string, path?: string | null): ErrorDetail {
  const messageId = numbers.get(name);
  if (!messageId) throw new Error(`${name} is no message of the error catalogue`);
  return path === undefined ? { messageId, description } : { messageId, path, description };
}

/**
 * What a refusal says of one of the bank's fixtures, which every world shares (docs/profiles.md,
 * "Fixtures"): it stays as it is, and what to do instead; of anything else, `why`.
 */
export const fixtureOr = (isFixture: boolean, instead: string, why: string): string => (isFixture ? staysAsFixture(instead) : why);

export const staysAsFixture = (instead: string): string => `one of the bank's fixtures, which stay as they are: ${instead} to try this`;

/** A refusal by its message's name: `refusal('consentNotValid', 'consent … is expired')`. */
export const refusal = (name: MessageName, description: string, path?: string | null): DomainError =>
  new DomainError(detail(name, description, path));

/** Whether `error` is a refusal with one of the named messages (as its first). */
export const isRefusal = (error: unknown, ...names: MessageName[]): error is DomainError =>
  error instanceof DomainError && error.is(...names);

/** The row of a message number, the core's or a registered service's. */
export function messageRow(messageId: MessageId): MessageRow {
  const row = rows.get(messageId);
  if (!row) throw new Error(`${messageId} is no message of the error catalogue`);
  return row;
}

/** Every row, the core's and the registered services', by number. */
export const messageRows = (): [MessageId, MessageRow][] => [...rows] as [MessageId, MessageRow][];

/** A row's status and code in the profile in force: the bank's, unless Berlin Group answers otherwise (docs/profiles.md). */
export function answerOf(messageId: MessageId, profile: AnswerStyle): { status: number; code: string } {
  const row = messageRow(messageId);
  return (profile === 'berlin-group' && row.berlinGroup) || row;
}

export interface TppMessage {
  category: 'ERROR';
  code: string;
  path: string | null;
  text: string;
}

export interface TppErrorBody {
  tppMessages: TppMessage[];
  _links: null;
}

/** One failing condition; `path` names the field, header or parameter at fault. */
export interface ErrorDetail {
  messageId: MessageId;
  description: string;
  path?: string | null;
}

/** A failure the client caused or may expect; the exception filter renders it, services never build HTTP answers. */
export class DomainError extends Error {
  readonly details: ErrorDetail[];
  /** Response headers the error needs besides the body, e.g. WWW-Authenticate. */
  readonly headers: Record<string, string> = {};

  constructor(first: ErrorDetail, ...more: ErrorDetail[]) {
    super(first.description);
    this.details = [first, ...more];
  }

  /** Whether its first message is one of these. */
  is(...names: MessageName[]): boolean {
    return names.some((name) => numbers.get(name) === this.details[0].messageId);
  }

  /** The status in the profile in force (the bank's by default). */
  status(profile: AnswerStyle = 'bank'): number {
    return answerOf(this.details[0].messageId, profile).status;
  }

  /** The bank's body; in PROFILE=berlin-group the filter leaves out its nulls. */
  toBody(profile: AnswerStyle = 'bank'): TppErrorBody {
    return {
      tppMessages: this.details.map(({ messageId, description, path }) => ({
        category: 'ERROR',
        code: answerOf(messageId, profile).code,
        path: path ?? null,
        text: `{sensitive} ${messageId}: ${description}`,
      })),
      _links: null,
    };
  }
}

export class FormatError extends DomainError {
  constructor(path: string, description: string) {
    super(detail('formatError', description, path));
  }
}

export class ConsentUnknownError extends DomainError {
  constructor(consentId: string) {
    super(detail('consentUnknown', `consent ${consentId} unknown`));
  }
}

export class ResourceUnknownError extends DomainError {
  constructor(resourceId: string) {
    super(detail('accountUnknown', `resource ${resourceId} unknown, not found or not part of the current consent`));
  }
}

interface OAuthErrorFields {
  error: string;
  error_description: string;
}

/**
 * A refusal of the token endpoint: OAuth clients read `error` (RFC 6749 §5.2), the rest of the
 * sandbox's clients read `tppMessages`, so the body carries both.
 */
export class OAuthError extends DomainError {
  constructor(
    detail: ErrorDetail,
    readonly error:
      | 'invalid_client'
      | 'invalid_request'
      | 'unsupported_grant_type'
      | 'server_error'
      | 'invalid_client_metadata'
      | 'invalid_redirect_uri'
      | 'invalid_token'
      | 'access_denied'
      | 'slow_down',
  ) {
    super(detail);
    // RFC 6749 §5.2: a 401 for client authentication names the scheme the client must use; RFC 6750 §3 for a bearer token.
    if (error === 'invalid_client') this.headers['WWW-Authenticate'] = 'Basic realm="psd2-sandbox"';
    if (error === 'invalid_token') this.headers['WWW-Authenticate'] = 'Bearer realm="psd2-sandbox", error="invalid_token"';
  }

  override toBody(profile: AnswerStyle = 'bank'): TppErrorBody & OAuthErrorFields {
    return { error: this.error, error_description: this.message, ...super.toBody(profile) };
  }

  /** Any other refusal of a token request (an unreadable or oversized body, a fault, too many sign-ins), in OAuth's words too; its headers kept. */
  static from(error: DomainError): OAuthError {
    const status = error.status();
    const converted = new OAuthError(error.details[0], status >= 500 ? 'server_error' : status === 429 ? 'slow_down' : 'invalid_request');
    Object.assign(converted.headers, error.headers);
    return converted;
  }
}
