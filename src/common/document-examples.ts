import type { OpenAPIObject } from '@nestjs/swagger';
import { fixtureAuthorisationId } from './resource-id';
import type { BankProfile } from '../profile/bank-profile';
import { addDaysWithin } from './dates';

/**
 * Examples that Swagger UI's Try it out sends as they stand (docs/development.md, "The served
 * document"): a decorator writes a placeholder where an example names the bank's data or a date,
 * and the document is filled in when it is served, from the profile's fixtures and the sandbox's
 * today. So the prefilled account is one the prefilled consent covers and the prefilled PSU holds,
 * in every profile, and no date goes stale as the calendar or the sandbox clock moves on.
 */
export const EXAMPLE = {
  /** The first account of the first valid fixture consent. */
  iban: '{example:iban}',
  /** Its holder (a fixture PSU). */
  psuId: '{example:psuId}',
  /** Another fixture account, to pay to. */
  creditorIban: '{example:creditorIban}',
  creditorName: '{example:creditorName}',
  /** The first valid fixture consent. */
  consentId: '{example:consentId}',
  /** Its authorisation (a fixture too). */
  consentAuthorisationId: '{example:consentAuthorisationId}',
  /** The first booked fixture transaction of `iban`. */
  transactionId: '{example:transactionId}',
  /** The first fixture client, which the token endpoint accepts in either AUTH_MODE. */
  clientId: '{example:clientId}',
  clientSecret: '{example:clientSecret}',
  /** The sandbox's today moved by `days`. */
  date: (days = 0) => `{example:today${days < 0 ? '-' : '+'}${Math.abs(days)}}`,
} as const;

type Name = Exclude<keyof typeof EXAMPLE, 'date'>;

/** What the placeholders stand for in this profile; a profile without a valid fixture consent leaves its own out. */
export function exampleValues(profile: BankProfile): Record<Name, string> {
  const { consents, accounts, psus, transactions } = profile.rows;
  const consent = consents.find(({ status }) => status === 'valid');
  const named = consent?.access.accounts.find((account) => 'iban' in account);
  const iban = (named && 'iban' in named ? named.iban : accounts[0]?.iban) ?? '';
  const creditor = accounts.find((account) => account.iban !== iban);
  const client = profile.rows.clients[0];
  return {
    iban,
    psuId: accounts.find((account) => account.iban === iban)?.psuId ?? psus[0]?.psuId ?? '',
    creditorIban: creditor?.iban ?? iban,
    creditorName: creditor?.name ?? '',
    consentId: consent?.id ?? '',
    consentAuthorisationId: consent ? fixtureAuthorisationId('consent', consent.id) : '',
    transactionId:
      transactions.find(({ accountIban, bookingStatus }) => accountIban === iban && bookingStatus === 'booked')?.transactionId ?? '',
    clientId: client?.clientId ?? '',
    clientSecret: client?.clientSecret ?? '',
  };
}

/** A copy of the document (or of any example in it) with every placeholder filled in. */
export function filledExamples<T extends object>(document: T, values: Record<Name, string>, today: string): T {
  const text = JSON.stringify(document).replace(/\{example:([A-Za-z]+)([+-]\d+)?\}/g, (placeholder, name: string, days?: string) => {
    const value = name === 'today' ? addDaysWithin(today, Number(days ?? 0)) : values[name as Name];
    if (value === undefined) throw new Error(`The served document names an example nobody fills in: ${placeholder}`);
    return JSON.stringify(value).slice(1, -1);
  });
  return JSON.parse(text) as T;
}

type Parameter = { name?: string; in?: string; example?: unknown; schema?: { example?: unknown } };

/** The parameters that name the bank's data, by name, and the fixture each is prefilled with. */
const PARAMETERS: Record<string, string> = {
  'path accountId': EXAMPLE.iban,
  'path transactionId': EXAMPLE.transactionId,
  'path psuId': EXAMPLE.psuId,
  'path clientId': EXAMPLE.clientId,
  'header PSU-ID': EXAMPLE.psuId,
  'header Consent-ID': EXAMPLE.consentId,
};

/**
 * An ID of a kind no fixture holds yet (docs/development.md, "The served document"): Swagger UI
 * sends what is prefilled, and the operation answers its documented refusal (404, or 403 for a
 * consent) rather than nothing at all, where no example of its own names one.
 */
export const NAMES_NOTHING_YET = '00000000-0000-4000-8000-000000000000';

/**
 * Every parameter that names an account, a transaction, a PSU, a client or an account-information
 * consent is prefilled with the profile's fixture, wherever it is declared; a consent in a path only
 * under /v1/consents and /sandbox (other consents are not account-information consents), and its
 * authorisation under /v1/consents. Any other path parameter without an example (its own or its schema's) gets NAMES_NOTHING_YET.
 */
export function exampleParameters(document: OpenAPIObject): void {
  for (const [path, parameter] of parametersOf(document)) {
    const consents = path.startsWith('/v1/consents/') || path.startsWith('/sandbox/');
    const key = `${parameter.in} ${parameter.name}`;
    const example =
      PARAMETERS[key] ??
      (key === 'path consentId' && consents ? EXAMPLE.consentId : undefined) ??
      (key === 'path authorisationId' && path.startsWith('/v1/consents/') ? EXAMPLE.consentAuthorisationId : undefined);
    if (example !== undefined) parameter.example = example;
    else if (parameter.in === 'path' && parameter.example === undefined && parameter.schema?.example === undefined)
      parameter.example = NAMES_NOTHING_YET;
  }
}

/** Sets the examples of the parameters so named on every path `where` holds (a service's fixtures, in its part of the document). */
export function exampleParametersWhere(document: OpenAPIObject, where: (path: string) => boolean, examples: Record<string, string>): void {
  for (const [path, parameter] of parametersOf(document))
    if (where(path) && parameter.name !== undefined && parameter.name in examples) parameter.example = examples[parameter.name];
}

/** Every parameter of every operation, with its path. */
function* parametersOf(document: OpenAPIObject): Generator<[string, Parameter]> {
  for (const [path, item] of Object.entries(document.paths))
    for (const operation of Object.values(item) as { parameters?: Parameter[] }[])
      for (const parameter of operation.parameters ?? []) yield [path, parameter];
}
