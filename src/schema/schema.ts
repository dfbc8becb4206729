import { InitialSchema1795200000000 } from '../../migrations/1795200000000-InitialSchema';
import { Payments1795300000000 } from '../../migrations/1795300000000-Payments';
import { ScaAndClock1795400000000 } from '../../migrations/1795400000000-ScaAndClock';
import { Scenarios1795500000000 } from '../../migrations/1795500000000-Scenarios';
import { Hardening1795600000000 } from '../../migrations/1795600000000-Hardening';
import { SharedState1795700000000 } from '../../migrations/1795700000000-SharedState';
import { LivingBank1795800000000 } from '../../migrations/1795800000000-LivingBank';
import { ScaApproaches1795900000000 } from '../../migrations/1795900000000-ScaApproaches';
import { EventHistory1796000000000 } from '../../migrations/1796000000000-EventHistory';
import { Notifications1796100000000 } from '../../migrations/1796100000000-Notifications';
import { SeededProfile1796200000000 } from '../../migrations/1796200000000-SeededProfile';
import { VerificationOfPayee1796300000000 } from '../../migrations/1796300000000-VerificationOfPayee';
import { TppIdentity1796400000000 } from '../../migrations/1796400000000-TppIdentity';
import { FundsConfirmation1796500000000 } from '../../migrations/1796500000000-FundsConfirmation';
import { Worlds1796900000000 } from '../../migrations/1796900000000-Worlds';
import { ClientRegistration1797000000000 } from '../../migrations/1797000000000-ClientRegistration';
import { BoundRequests1797100000000 } from '../../migrations/1797100000000-BoundRequests';
import { RegistrationWindows1797200000000 } from '../../migrations/1797200000000-RegistrationWindows';
import { WorldResources1797300000000 } from '../../migrations/1797300000000-WorldResources';
import { WorldUse1797400000000 } from '../../migrations/1797400000000-WorldUse';
import { WorldSnapshots1797500000000 } from '../../migrations/1797500000000-WorldSnapshots';
import { HashedClientSecrets1797600000000 } from '../../migrations/1797600000000-HashedClientSecrets';
import { ChangeListeners1797600000001 } from '../../migrations/1797600000001-ChangeListeners';
import { Pain001Documents1797700000000 } from '../../migrations/1797700000000-Pain001Documents';
import { OneOwnerIndex1797800000000 } from '../../migrations/1797800000000-OneOwnerIndex';
import { WorldSnapshot } from '../database/world-snapshot.entity';
import { SandboxEvent } from '../events/sandbox-event.entity';
import { AccessCount } from '../account-information/access-count.entity';
import { AccessToken, TppClient } from '../oauth/client.entity';
import { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { SandboxClock } from '../clock/sandbox-clock.entity';
import { SandboxSecret } from '../sca/sandbox-secret.entity';
import { Consent } from '../consent/consent.entity';
import { Payment } from '../payment-initiation/payment.entity';
import { FailedInstalment } from '../payment-initiation/failed-instalment.entity';
import { Authorisation } from '../authorisation/authorisation.entity';
import { BankConditions } from '../conditions/bank-conditions.entity';
import { Notification, NotificationSubscription } from '../notifications/notification.entity';
import { PayeeCheck } from '../verification-of-payee/payee-check.entity';
import { CertificateAuthority, TppCertificate } from '../tpp-identity/tpp-certificate.entity';
import { SignedRequest } from '../tpp-identity/signed-request.entity';
import { EndedSession, RegistrationWindow, SignInFailures } from '../oauth/sign-in.entity';
import { SeededProfile } from '../database/seeded-profile.entity';
import type { Schema } from '../database/data-source';
import type { SandboxService } from '../core/sandbox-service';

/** The core's tables; each registered service adds its own (SandboxService.entities). */
export const CORE_ENTITIES = [
  Consent,
  Psu,
  Account,
  Balance,
  Transaction,
  Payment,
  Authorisation,
  SandboxClock,
  SandboxSecret,
  TppClient,
  AccessToken,
  AccessCount,
  FailedInstalment,
  BankConditions,
  SandboxEvent,
  NotificationSubscription,
  Notification,
  SeededProfile,
  PayeeCheck,
  CertificateAuthority,
  TppCertificate,
  SignedRequest,
  SignInFailures,
  EndedSession,
  RegistrationWindow,
  WorldSnapshot,
];
// Listed as classes, not globs, so the same list works from ts-jest and from dist/.
const MIGRATIONS = [
  InitialSchema1795200000000,
  Payments1795300000000,
  ScaAndClock1795400000000,
  Scenarios1795500000000,
  Hardening1795600000000,
  SharedState1795700000000,
  LivingBank1795800000000,
  ScaApproaches1795900000000,
  EventHistory1796000000000,
  Notifications1796100000000,
  SeededProfile1796200000000,
  VerificationOfPayee1796300000000,
  TppIdentity1796400000000,
  FundsConfirmation1796500000000,
  Worlds1796900000000,
  ClientRegistration1797000000000,
  BoundRequests1797100000000,
  RegistrationWindows1797200000000,
  WorldResources1797300000000,
  WorldUse1797400000000,
  WorldSnapshots1797500000000,
  HashedClientSecrets1797600000000,
  ChangeListeners1797600000001,
  Pain001Documents1797700000000,
  OneOwnerIndex1797800000000,
];

/**
 * What the database holds: the core's tables and migrations, and the registered services' (src/services.ts).
 * TypeORM runs the migrations in the order of their timestamps, wherever they are listed.
 */
export const schemaOf = (services: readonly SandboxService[]): Schema => ({
  entities: [...CORE_ENTITIES, ...services.flatMap((service) => service.entities)],
  migrations: [...MIGRATIONS, ...services.flatMap((service) => service.migrations ?? [])],
});
