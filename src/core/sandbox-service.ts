import type { DynamicModule, Type } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { MigrationInterface } from 'typeorm';
import type { Environment } from '../config/environment';
import type { CockpitSection } from './cockpit-section';
import type { OfferedGroup } from './offered-by';
import type { ServiceMessageRows } from '../common/error-catalogue';
import type { EventKind } from '../events/sandbox-event.entity';
import type { ConsentAccess, ConsentedAccount } from '../consent/consent.entity';
import type { BankProfile, FixtureFiles, ProfileSettings } from '../profile/bank-profile';
import type { Authorisable } from '../authorisation/authorisation-port.service';
import type { AccountKind } from '../consent/account-kinds.service';
import type { Naming } from '../notifications/notifications.service';
import type { ScaExemption } from '../payment-initiation/sca-exemptions.service';
import type { DocumentTag } from '../http/document-front-door';

/**
 * What the core asks of a Berlin Group service beyond the seed bank's (docs/development.md,
 * "A service plugs in"). Each service folder exports one; `src/services.ts` lists them, and the
 * app module, data source, seeding, reset, profile loading, served document and event kinds go
 * through that list: no other file names a service.
 */
export interface SandboxService {
  /** Its profile key and the name the docs use. */
  readonly name: string;
  /**
   * Its keys of profile.yaml, each a dotted path (`scaExemptions.trustedBeneficiaries` adds to the
   * core's key), with the JSON schema of its value: the profile loader adds them to its schema.
   */
  readonly profileKeys: Record<string, object>;
  /** Whether the profile offers it: where not, its module is not imported and its fixtures are refused. */
  offeredBy(settings: ProfileSettings): boolean;
  /** Its Nest module (routes, providers) for a profile that offers it. */
  module(profile: BankProfile, environment: Environment): DynamicModule | Type;
  /** Its tables, in the order a reset empties them (before the core's: they name accounts and PSUs). */
  readonly entities: Type[];
  /** Its rows of the error catalogue (docs/errors.md): numbers no other row takes, listed on its page. */
  readonly messages?: ServiceMessageRows;
  /** The migrations that make its tables (in migrations/, as the core's). */
  readonly migrations?: Type<MigrationInterface>[];
  /** Its fixture file, where a profile may hold one. */
  readonly fixtures?: ServiceFixtures;
  /**
   * Fixtures it derives from the profile's where the bank offers it (docs/profiles.md, "Fixtures"),
   * so that its operations' examples name something in a fresh sandbox: served from memory to
   * every world, never stored, never changed.
   */
  derivedFixtures?(profile: BankProfile): DerivedFixtures;
  /** What its settings say that the profile schema cannot, offered or not: a line per problem, naming the key. */
  settingsProblems?(settings: ProfileSettings): string[];
  /** Its part of the served document, in every profile: it also takes out what the bank does not offer. */
  document(document: OpenAPIObject, profile: BankProfile): void;
  /** The group of operations it adds to the served document, where it has one of its own. */
  readonly tag?: DocumentTag;
  /** Its lines of the document's introduction where the bank offers it. */
  summary(profile: BankProfile): string[];
  /**
   * The group of its fields of other features' requests, read only where it is offered
   * (docs/profiles.md): the core's fields it offers say so where they are written (OfferedBy), its
   * scenario field is read in it.
   */
  readonly requestGroup?: string;
  /** The event kinds only it records. */
  readonly eventKinds?: EventKind[];
  /** Its part of a test suite's scenario (POST /sandbox/scenarios), where the bank offers it. */
  readonly scenario?: ScenarioPart;
  /** Its part of the cockpit: a provider of its module, found by this class (docs/cockpit.md). */
  readonly cockpit?: Type<CockpitSection>;
  /** What it changes in the core's behaviour, through the core's ports: registered for it where it is offered (src/service-ports.ts). */
  readonly ports?: ServicePorts;
}

/** A port a service fills from a provider of its module (`get` finds one by its class), or none where its settings want none. */
export type PortOf<Port> = (get: <T>(type: Type<T>) => T, profile: BankProfile) => Port | null;

/** The core's ports a service may fill (docs/development.md, "A service plugs in"). */
export interface ServicePorts {
  /** A kind of resource the account holder authorises, for the SCA of every channel (AuthorisationPort). */
  readonly authorisable?: PortOf<Authorisable>;
  /** An SCA exemption of payments (ScaExemptions). */
  readonly scaExemption?: PortOf<ScaExemption>;
  /** A kind of account a consent names beside payment accounts (AccountKinds). */
  readonly accountKind?: PortOf<AccountKind>;
  /** A kind of resource a TPP may be notified of: its LAST statuses, and how a notification names it (NotificationsService). */
  readonly notified?: { kind: string; lastStatuses: string[]; naming: Naming };
  /** Its resources may be authorised explicitly: TPP-Explicit-Authorisation-Preferred is honoured (AuthorisationService). */
  readonly explicitStart?: boolean;
}

/** A scenario as its parts see it: every row they make carries its scenarioId and belongs to its PSU. */
export interface ScenarioContext {
  scenarioId: string;
  psuId: string;
  /** The name of the scenario's first account: its holder's. */
  holderName: string;
  today: string;
}

/** What a service adds to a scenario from the request's fields it reads (validated by the scenario DTO). */
export interface ScenarioPart<Request = never> {
  /** The name of its field in the scenario's request and answer: the control layer's slot for it (scenario.dto.ts). */
  readonly field: string;
  /** The field's rules in the request, as written on it (`where`: read only where the service is offered), and in the answer. */
  request(where: OfferedGroup): PropertyDecorator[];
  readonly answer?: PropertyDecorator[];
  rows(request: Request, scenario: ScenarioContext): ScenarioShare;
  /** Its tables holding a scenario's rows: deleted with the scenario by scenarioId. */
  readonly tables: Type[];
}

export interface ScenarioShare {
  tables: FixtureTable[];
  /** Accounts the scenario's consent names beside its payment accounts. */
  consentAccounts?: ConsentedAccount[];
  /** Further keys of the consent's access. */
  access?: Partial<ConsentAccess>;
  /** Further keys of the answer (ScenarioResponse). */
  answer?: Record<string, unknown>;
}

/** Derived fixture rows, by entity (Fixtures): several sources may add rows of one entity. */
export type DerivedFixtures = [Type<object>, readonly object[]][];

/** Fixture rows as the database holds them: upserted on their conflict columns, emptied on reset with their entity. */
export interface FixtureTable<Row extends object = object> {
  entity: Type<Row>;
  conflictPaths: string[];
  rows: Row[];
}

/** A service's fixture file `<name>.json` in a profile's fixtures folder (docs/profiles.md). */
export interface ServiceFixtures<Content = never> {
  readonly name: string;
  /** Its JSON schema, which may refer to fixtures.schema.json's definitions. */
  readonly schema: object;
  /** What the schema cannot say, checked against the core fixtures: [key, problem] pairs. */
  problems(content: Content, core: FixtureFiles): [string, string][];
  /** Its rows, in the order they are seeded. */
  tables(content: Content, core: FixtureFiles): FixtureTable[];
}
