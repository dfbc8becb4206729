import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Account, Psu } from '../bank/account.entity';
import { isOwnedBy, Owner } from '../oauth/owner';
import { DomainError } from '../common/error-catalogue';
import { Store } from '../database/store';
import type { AccountReference, Consent } from '../consent/consent.entity';
import type { ScaDecision } from '../authorisation/authorisation.machine';
import { ConsentService } from '../consent/consent.service';
import type { Payment } from '../payment-initiation/payment.entity';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';

/** Who decides: the SCA page checks the password too; the headless control endpoints name the PSU only. */
export interface PsuLogin {
  psuId: string;
  password?: string;
}

/** The account holder's decisions, with the same checks and effects for the pages and the control endpoints. */
@Injectable()
export class ScaService {
  constructor(
    private readonly store: Store,
    private readonly consents: ConsentService,
    private readonly payments: PaymentInitiationService,
  ) {}

  /** `owner`: the headless control endpoints act for a client (strict mode); the pages for everyone (undefined). */
  async decideConsent(consentId: string, decision: ScaDecision, login: PsuLogin, owner: Owner): Promise<{ consent: Consent; redirectUri: string | null }> {
    return this.consents.decide(consentId, decision, await this.heldBy(login, owner), owner);
  }

  async decidePayment(
    paymentId: string,
    kind: 'payment' | 'cancellation',
    decision: ScaDecision,
    login: PsuLogin,
    owner: Owner,
  ): Promise<{ payment: Payment; redirectUri: string | null }> {
    const held = await this.heldBy(login, owner);
    return this.payments.decide(paymentId, kind, decision, held.map(({ iban }) => iban), owner);
  }

  /** The accounts among `ibans`, as the consent page names them. */
  accounts(ibans: string[]): Promise<Account[]> {
    return this.store.read(Account).findBy({ iban: In(ibans) });
  }

  /**
   * The accounts of a PSU whose credentials hold; 401 PSU_CREDENTIALS_INVALID otherwise. A client
   * (strict mode) acts only as the fixture PSUs and its own scenarios' PSUs: another client's
   * scenario PSU is answered exactly as an unknown one (docs/security.md).
   */
  private async heldBy({ psuId, password }: PsuLogin, owner: Owner): Promise<AccountReference[]> {
    const psu = await this.store.read(Psu).findOneBy({ psuId });
    const foreign = psu !== null && psu.scenarioId !== null && !isOwnedBy(psu, owner);
    if (!psu || foreign || (password !== undefined && password !== psu.password)) {
      throw new DomainError({ messageId: 'XS2A022E', description: 'unknown PSU ID or wrong password' });
    }
    const accounts = await this.store.read(Account).find({ where: { psuId }, order: { iban: 'ASC' } });
    return accounts.map(({ iban, currency }) => ({ iban, currency }));
  }
}
