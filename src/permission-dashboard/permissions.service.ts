import { Injectable } from '@nestjs/common';
import { In, IsNull, Not, Raw } from 'typeorm';
import { AccessCount } from '../account-information/access-count.entity';
import { ClockService } from '../clock/clock.service';
import { accountKey, Consent } from '../consent/consent.entity';
import { consentedKeys } from '../consent/coverage';
import { Store } from '../database/store';
import type { Actor } from '../common/request-context';
import { SandboxEvent } from '../events/sandbox-event.entity';
import { TppClient } from '../oauth/client.entity';
import { ownedBy, type World } from '../world/world';
import { ScaService, type PsuLogin } from '../sca/sca.service';
import { TppCertificate } from '../tpp-identity/tpp-certificate.entity';
import { isCurrent, isOnRecord, type Permission, type PermissionFacts, toPermission } from './permission';

/** What the dashboard's settings in the profile say (docs/permission-dashboard.md). */
export class DashboardSettings {
  /** Whether the holder may re-establish a consent they withdrew. */
  reestablish: boolean;
}

/** A PSU's permissions: those that grant access or may again, and the record of the others. */
export interface PermissionList {
  psuId: string;
  permissions: Permission[];
  record: Permission[];
}

/**
 * The account holder's permission dashboard (docs/permission-dashboard.md): the consents that name
 * their accounts or cards, newest first, and their withdrawal and re-establishment. `world`: a
 * client (the headless routes, AUTH_MODE=strict) sees and changes only its own; the page, the holder's
 * own channel, every client's (undefined).
 */
@Injectable()
export class PermissionsService {
  constructor(
    private readonly store: Store,
    private readonly sca: ScaService,
    private readonly clock: ClockService,
    private readonly settings: DashboardSettings,
  ) {}

  /** The PSU's permissions; 401 PSU_CREDENTIALS_INVALID for an unknown PSU or a wrong password (as every decision of the holder). */
  async list(login: PsuLogin, world: World): Promise<PermissionList> {
    const own = new Set((await this.sca.heldBy(login, world)).map(accountKey));
    const described = await this.describe(await this.naming(own, world), own, world);
    const today = this.clock.today(world);
    return {
      psuId: login.psuId,
      permissions: described.filter(isCurrent),
      record: described.filter((permission) => isOnRecord(permission, today)),
    };
  }

  /** The holder withdraws a valid consent, or re-establishes one they withdrew: the permission as it is now. */
  async change(
    change: 'revoke' | 'reestablish',
    consentId: string,
    login: PsuLogin,
    world: World,
    channel: Actor['channel'],
  ): Promise<Permission> {
    const consent = await this.sca.changeConsent(change, consentId, login, world, channel);
    // The change checked that the holder holds every account it names (accessDecidedBy): all are theirs to see.
    const [permission] = await this.describe([consent], new Set(consentedKeys(consent.access)), world);
    return permission;
  }

  /**
   * What a TPP or a suite created (the bank's own fixture consents are scenery, no one's permission)
   * that names one of the holder's `own` accounts, newest first. The access column is searched as
   * text for each key; the coverage rule then decides.
   */
  private async naming(own: ReadonlySet<string>, world: World): Promise<Consent[]> {
    const keys = [...own];
    if (keys.length === 0) return [];
    const parameters = Object.fromEntries(keys.map((key, index) => [`key${index}`, `%"${key}"%`]));
    const access = Raw((column) => `(${keys.map((_, index) => `${column} LIKE :key${index}`).join(' OR ')})`, parameters);
    const consents = await this.store.read(Consent).find({
      where: [
        { fixture: false, access, ...ownedBy(world) },
        { scenarioId: Not(IsNull()), access, ...ownedBy(world) },
      ],
      order: { id: 'DESC' },
    });
    return consents.filter((consent) => consentedKeys(consent.access).some((key) => own.has(key)));
  }

  /** The consents as the dashboard shows them, with what the history, the access counters and the certificates say of each. */
  private async describe(consents: Consent[], own: ReadonlySet<string>, world: World): Promise<Permission[]> {
    const ids = consents.map(({ id }) => id);
    const events = await this.store.read(SandboxEvent).find({ where: { kind: 'consent', resourceId: In(ids) }, order: { id: 'ASC' } });
    const counts = await this.store.read(AccessCount).findBy({ consentId: In(ids) });
    const serials = events.flatMap(({ event, certificate }) => (event === 'CREATED' && certificate ? [certificate] : []));
    const certificates = new Map(
      (await this.store.read(TppCertificate).findBy({ serialNumber: In(serials) })).map((certificate) => [
        certificate.serialNumber,
        certificate,
      ]),
    );
    const clientIds = consents.flatMap(({ ownerId }) => (ownerId ? [ownerId] : []));
    const clients = new Map(
      (await this.store.read(TppClient).findBy({ clientId: In(clientIds) })).map((client) => [client.clientId, client.name]),
    );
    const today = this.clock.today(world);
    return consents.map((consent) => {
      const history = events.filter(({ resourceId }) => resourceId === consent.id);
      const created = history.find(({ event }) => event === 'CREATED');
      const certificate = created?.certificate ? certificates.get(created.certificate) : undefined;
      const facts: PermissionFacts = {
        tpp: {
          clientId: consent.ownerId,
          name: consent.ownerId ? (clients.get(consent.ownerId) ?? null) : null,
          organisationName: certificate?.organisationName ?? null,
          organisationIdentifier: certificate?.organisationIdentifier ?? null,
        },
        grantedOn: history.find(({ toStatus }) => toStatus === 'valid')?.sandboxDate ?? null,
        counts: counts.filter(({ consentId }) => consentId === consent.id),
      };
      return toPermission(consent, own, facts, today, this.settings.reestablish);
    });
  }
}
