import type { ScaApproach } from '../authorisation/authorisation.entity';
import type { Account, Balance, BookingStatus, Psu, Transaction, TransactionBody } from '../bank/account.entity';
import type { Consent } from '../consent/consent.entity';
import type { ConsentStatus } from '../consent/consent.machine';
import type { TppClient } from '../oauth/client.entity';
import type { Type } from '@nestjs/common';
import type { FixtureTable, SandboxService } from '../core/sandbox-service';
import type { PaymentProduct, PaymentServiceName } from '../payment-initiation/payment-products';
import { ANSWER_HABITS, type AnswerHabits, type AnswerStyle } from '../common/answer-style';
import { addDaysWithin } from '../common/dates';

/**
 * profile.yaml once `extends` is resolved (src/profile/profile.schema.json, docs/profiles.md): the
 * core's keys; each service declares its own beside its descriptor (SandboxService.profileKeys).
 */
export interface ProfileSettings {
  name: string;
  bic: string;
  answers: AnswerStyle;
  scaApproaches: ('redirect' | 'embedded' | 'decoupled')[];
  paymentProducts: Partial<Record<PaymentServiceName, PaymentProduct[]>>;
  consents?: { maxValidityDays?: number; maxFrequencyPerDay?: number; access?: AnswerStyle };
  transactionReports?: Partial<TransactionReports>;
  vop?: { mode?: VopMode; closeMatch?: number; payees?: ExternalPayee[] };
  tpp?: {
    oauth?: 'required' | 'optional';
    signatures?: 'off' | 'optional' | 'required';
    qwac?: 'off' | 'header' | 'mtls';
    qwacHeader?: string;
    revoked?: RevokedCode;
    registration?: 'open' | 'closed';
    trustedCAs?: string[];
  };
  scaExemptions?: ScaExemptionSettings;
}

/** The payments the bank exempts from SCA: each service that exempts some adds its key (docs/profiles.md, "A service's keys"). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the services' declarations
export interface ScaExemptionSettings {}

/** How the bank identifies TPPs (docs/tpp-identity.md), its defaults filled in. */
export interface TppIdentitySettings {
  /** Whether a /v1 request needs a bearer token; optional: without one, strict mode knows the client by its certificate. */
  oauth: 'required' | 'optional';
  signatures: 'off' | 'optional' | 'required';
  qwac: 'off' | 'header' | 'mtls';
  qwacHeader: string;
  revoked: RevokedCode;
  /** Whether TPPs may register themselves (POST /register). */
  registration: 'open' | 'closed';
}

/** How the bank answers a transaction list (docs/formats.md), its defaults filled in. */
export interface TransactionReports {
  /** The media types offered, application/json always among them. */
  formats: ReportMediaType[];
  /** The camt message of a report of booked transactions only. */
  booked: 'camt.053' | 'camt.054';
  /** From this many bytes a camt or MT94x report is a download. */
  downloadFrom: number;
}

export type ReportMediaType = 'application/json' | 'application/xml' | 'text/plain';

/** How a revoked certificate is answered: Berlin Group 1.3.11's spelling, or 1.3.16's. */
export type RevokedCode = 'CERTIFICATE_REVOKE' | 'CERTIFICATE_REVOKED';

/** When payments are checked against the payee's registered name (docs/verification-of-payee.md). */
export type VopMode = 'on-request' | 'always' | 'off';

/** A payee at another bank whose registered name the sandbox answers for (profile key vop.payees). */
export interface ExternalPayee {
  iban: string;
  name: string;
  organisationId?: string;
  /** Its bank does not answer: a payment gets RVNC, a check NOAP. */
  unreachable?: boolean;
}

/** Berlin Group authenticationObject: one way a PSU receives a TAN. */
export interface ScaMethod {
  authenticationType: 'SMS_OTP' | 'CHIP_OTP' | 'PHOTO_OTP' | 'PUSH_OTP' | 'SMTP_OTP';
  authenticationMethodId: string;
  name: string;
}

/** One entry of psus.json. */
export interface FixturePsu {
  psuId: string;
  name: string;
  password: string;
  accounts: string[];
  scaMethods: ScaMethod[];
  decoupledConfirmsAtPoll: number | null;
  blocked?: boolean;
}

/** The core's fixture files as a profile holds them (docs/profiles.md, "The fixture files"); a service's are its own (SandboxService.fixtures). */
export interface FixtureFiles {
  psus: FixturePsu[];
  accounts: (Omit<Account, 'balances' | 'psuId' | 'scenarioId'> & { balances: Omit<Balance, 'accountIban' | 'account'>[] })[];
  transactions: Record<string, Partial<Record<BookingStatus, TransactionBody[]>>>;
  consents: {
    stored: {
      id: string;
      status: ConsentStatus;
      accounts: string[];
      recurringIndicator: boolean;
      validUntil: string;
      frequencyPerDay: number;
      lastActionDate: string;
    }[];
    unknown?: string[];
  };
  clients: (Pick<TppClient, 'clientId' | 'name'> & { clientSecret: string })[];
}

/** How a test PSU behaves in SCA beyond the password (docs/sca-approaches.md, "Test PSUs"). */
export interface Persona {
  /** None: the PSU is exempted, the password finalises the authorisation. */
  scaMethods: ScaMethod[];
  /** The poll of the SCA status at which the PSU confirms in the app by itself (decoupled); null: only the page or the control API decide. */
  decoupledConfirmsAtPoll: number | null;
  /** Blocked by the bank: every authorisation is refused with 403 SERVICE_BLOCKED. */
  blocked: boolean;
}

/** The fixture rows as the database holds them: the seed upserts copies, the app serves them from memory. */
export interface FixtureRows {
  psus: Pick<Psu, 'psuId' | 'name' | 'password'>[];
  accounts: Omit<Account, 'balances'>[];
  balances: Balance[];
  transactions: Transaction[];
  consents: Consent[];
  /** As the files give them, with their secrets: the seed stores each secret's hash (seed-fixtures.ts). */
  clients: FixtureFiles['clients'];
  /** The offered services' fixture rows, in the order they are seeded. */
  services: FixtureTable[];
}

const APPROACH: Record<ProfileSettings['scaApproaches'][number], ScaApproach> = {
  redirect: 'REDIRECT',
  embedded: 'EMBEDDED',
  decoupled: 'DECOUPLED',
};

/**
 * The bank in force: its settings and fixtures, loaded and checked once at start (load-profile.ts).
 * Every difference between banks is asked of it by name; nothing else reads PROFILE.
 */
export class BankProfile {
  /** The approaches the bank supports, the default first. */
  readonly approaches: ScaApproach[];
  /** Frozen all the way down: a caller that tried to change a fixture would throw, not change what every later request is answered from. */
  readonly rows: FixtureRows;
  private readonly personas: Map<string, Persona>;

  constructor(
    /** The built-in name or the folder PROFILE named. */
    readonly source: string,
    readonly settings: ProfileSettings,
    files: FixtureFiles,
    /** The registered services the bank offers (src/services.ts), in the registry's order. */
    readonly services: readonly SandboxService[],
    /** Their fixture rows. */
    serviceTables: FixtureTable[],
    /** Identifies the settings and fixtures: instances on one database must agree on it. */
    readonly digest: string,
    /** The PEM certificates of the CAs whose TPP certificates the bank accepts beside the sandbox's own (tpp.trustedCAs). */
    readonly trustedCAs: string[] = [],
  ) {
    this.approaches = settings.scaApproaches.map((approach) => APPROACH[approach]);
    this.rows = deepFreeze({ ...fixtureRows(files), services: serviceTables });
    this.personas = new Map(
      files.psus.map(({ psuId, scaMethods, decoupledConfirmsAtPoll, blocked }) => [
        psuId,
        { scaMethods, decoupledConfirmsAtPoll, blocked: blocked === true },
      ]),
    );
  }

  /** A service's fixture rows of one entity (none where the profile holds none). */
  fixturesOf<Row extends object>(entity: Type<Row>): readonly Row[] {
    return (this.rows.services.find((table) => table.entity === entity)?.rows ?? []) as Row[];
  }

  /** Whether the bank offers the registered service of this name (its profile key). */
  provides(name: string): boolean {
    return this.services.some((service) => service.name === name);
  }

  get name(): string {
    return this.settings.name;
  }

  get answers(): AnswerStyle {
    return this.settings.answers;
  }

  /** What its answers carry beyond Berlin Group's, by its answer style. */
  get habits(): AnswerHabits {
    return ANSWER_HABITS[this.settings.answers];
  }

  get defaultApproach(): ScaApproach {
    return this.approaches[0];
  }

  /** The approach a TPP gets: its preference where the bank supports it, else the bank's default (Berlin Group: the ASPSP decides). */
  approachFor(preferred: ScaApproach | null): ScaApproach {
    return preferred !== null && this.approaches.includes(preferred) ? preferred : this.defaultApproach;
  }

  offers(service: PaymentServiceName, product: string): product is PaymentProduct {
    return (this.settings.paymentProducts[service] ?? []).some((offered) => offered === product);
  }

  get transactionReports(): TransactionReports {
    const { formats = ['application/json'], booked = 'camt.053', downloadFrom = 1_048_576 } = this.settings.transactionReports ?? {};
    return { formats, booked, downloadFrom };
  }

  /** The terms a new consent gets: the requested ones, cut down to the bank's limits (Berlin Group: "future dates might get adjusted by ASPSP"). */
  consentTerms(validUntil: string, frequencyPerDay: number, today: string): { validUntil: string; frequencyPerDay: number } {
    const { maxValidityDays, maxFrequencyPerDay } = this.settings.consents ?? {};
    return {
      validUntil: maxValidityDays === undefined ? validUntil : [validUntil, addDaysWithin(today, maxValidityDays)].sort()[0],
      frequencyPerDay: Math.min(frequencyPerDay, maxFrequencyPerDay ?? frequencyPerDay),
    };
  }

  /** How a consent's access reads (docs/behaviour.md, "Consent access"): the seed bank's rules (default), or Berlin Group's. */
  get consentAccess(): AnswerStyle {
    return this.settings.consents?.access ?? 'bank';
  }

  /** Verification of Payee with its defaults filled in (docs/verification-of-payee.md). */
  get vop(): { mode: VopMode; closeMatch: number } {
    const { mode = 'on-request', closeMatch = 0.8 } = this.settings.vop ?? {};
    return { mode, closeMatch };
  }

  get tpp(): TppIdentitySettings {
    const {
      oauth = 'required',
      signatures = 'off',
      qwac = 'off',
      qwacHeader = 'X-SSL-Client-Cert',
      revoked = 'CERTIFICATE_REVOKE',
      registration = 'open',
    } = this.settings.tpp ?? {};
    return { oauth, signatures, qwac, qwacHeader, revoked, registration };
  }

  /**
   * The groups of request fields the bank accepts beyond the seed bank's (the validation pipe's):
   * where it does not offer a service, its fields are stripped unread, as the seed bank does.
   */
  get requestGroups(): string[] {
    return this.services.flatMap(({ requestGroup }) => (requestGroup ? [requestGroup] : []));
  }

  /** A payee at another bank the profile lists, if it does. */
  externalPayee(iban: string): ExternalPayee | undefined {
    return this.settings.vop?.payees?.find((payee) => payee.iban === iban);
  }

  /** What the served document's introduction says of the bank (docs/profiles.md). */
  summary(): string {
    const { maxValidityDays, maxFrequencyPerDay } = this.settings.consents ?? {};
    const products = Object.entries(this.settings.paymentProducts).flatMap(([service, list]) =>
      list.map((product) => `${service}/${product}`),
    );
    return [
      `The bank: ${this.name} (BIC ${this.settings.bic}), profile ${this.source}.`,
      `SCA approaches: ${this.approaches.join(', ')} (the first is the default; any other preference gets it).`,
      `Payment products: ${products.join(', ') || 'none'}.`,
      ...(this.transactionReports.formats.length > 1 ? [`Transaction reports: ${this.transactionReports.formats.join(', ')}.`] : []),
      `Verification of Payee: ${this.vop.mode}, close match from a similarity of ${this.vop.closeMatch}; ${this.settings.vop?.payees?.length ?? 0} payees at other banks.`,
      `TPP identity: bearer token ${this.tpp.oauth}, signatures ${this.tpp.signatures}, QWAC ${this.tpp.qwac === 'header' ? `in the ${this.tpp.qwacHeader} header` : this.tpp.qwac}.`,
      ...this.services.flatMap((service) => service.summary(this)),
      `Consents: valid for ${maxValidityDays === undefined ? 'as long as asked' : `at most ${maxValidityDays} days`}, ${maxFrequencyPerDay === undefined ? 'any frequencyPerDay' : `at most ${maxFrequencyPerDay} accesses a day`}; a longer validUntil or a higher frequencyPerDay is cut down.`,
    ].join('\n');
  }

  /** A fixture PSU's persona, or undefined for a scenario's PSU. */
  personaOf(psuId: string): Persona | undefined {
    return this.personas.get(psuId);
  }

  /** The first valid fixture consent, if there is one. */
  get firstValidConsentId(): string | undefined {
    return this.rows.consents.find((consent) => consent.status === 'valid')?.id;
  }

  /**
   * The consent an explicit account list gets in SCA_MODE=auto instead of one stored as asked:
   * the first valid fixture, as the seed bank answers (answers: bank, docs/behaviour.md); none in
   * Berlin Group's answers, where a generic client must read the accounts it named.
   */
  get consentForExplicitAccounts(): string | undefined {
    return this.answers === 'bank' ? this.firstValidConsentId : undefined;
  }
}

/** Frozen all the way down: fixtures are shared by every request and world. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function fixtureRows(files: FixtureFiles): Omit<FixtureRows, 'services'> {
  const holder = new Map(files.psus.flatMap(({ psuId, accounts }) => accounts.map((iban) => [iban, psuId])));
  const currency = new Map(files.accounts.map((account) => [account.iban, account.currency]));
  return {
    psus: files.psus.map(({ psuId, name, password }) => ({ psuId, name, password })),
    accounts: files.accounts.map(({ iban, name, currency, product, bic }) => ({
      iban,
      name,
      currency,
      product,
      bic,
      psuId: holder.get(iban) ?? null,
      scenarioId: null,
    })),
    balances: files.accounts.flatMap(({ iban, balances }) => balances.map((balance) => ({ ...balance, accountIban: iban }) as Balance)),
    transactions: Object.entries(files.transactions).flatMap(([accountIban, byStatus]) =>
      Object.entries(byStatus).flatMap(([bookingStatus, bodies]) =>
        bodies.map(
          (body) =>
            ({
              transactionId: body.transactionId,
              accountIban,
              bookingStatus: bookingStatus as BookingStatus,
              bookingDate: body.bookingDate,
              body,
            }) as Transaction,
        ),
      ),
    ),
    consents: files.consents.stored.map(({ id, status, accounts, ...terms }): Consent => ({
      id,
      status,
      access: {
        accounts: accounts.map((iban) => ({ iban, currency: currency.get(iban)! })),
        balances: [],
        transactions: [],
        availableAccounts: null,
      },
      ...terms,
      fixture: true,
      scenarioId: null,
      ownerId: null,
      card: null,
    })),
    clients: files.clients,
  };
}
