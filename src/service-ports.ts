import { Injectable, OnModuleInit, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AuthorisationPort } from './authorisation/authorisation-port.service';
import { AuthorisationService } from './authorisation/authorisation.service';
import { AccountKinds } from './consent/account-kinds.service';
import { ConsentService } from './consent/consent.service';
import { PaymentInitiationService } from './payment-initiation/payment-initiation.service';
import { NotificationsService } from './notifications/notifications.service';
import { ScaExemptions } from './payment-initiation/sca-exemptions.service';
import { BankProfile } from './profile/bank-profile';

/**
 * Fills the core's ports: with the core's own authorisable kinds (consents, payments and their
 * cancellations), and with what each offered service's descriptor lists (SandboxService.ports):
 * the one place a service changes the core's behaviour, once its module's providers exist
 * (docs/development.md, "A service plugs in").
 */
@Injectable()
export class ServicePortsRegistration implements OnModuleInit {
  constructor(
    private readonly modules: ModuleRef,
    private readonly profile: BankProfile,
    private readonly port: AuthorisationPort,
    private readonly exemptions: ScaExemptions,
    private readonly kinds: AccountKinds,
    private readonly notifications: NotificationsService,
    private readonly authorisations: AuthorisationService,
  ) {}

  onModuleInit(): void {
    const get = <T>(type: Type<T>): T => this.modules.get(type, { strict: false });
    this.port.register(get(ConsentService).authorisable(), ...get(PaymentInitiationService).authorisables());
    for (const { ports } of this.profile.services) {
      if (!ports) continue;
      const { authorisable, scaExemption, accountKind, notified, explicitStart } = ports;
      const authorising = authorisable?.(get, this.profile);
      if (authorising) this.port.register(authorising);
      const exemption = scaExemption?.(get, this.profile);
      if (exemption) this.exemptions.register(exemption);
      const kind = accountKind?.(get, this.profile);
      if (kind) this.kinds.register(kind);
      if (notified) this.notifications.notifyOf(notified.kind, notified.lastStatuses, notified.naming);
      if (explicitStart) this.authorisations.acceptExplicitStart();
    }
  }
}
