import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { Owner, ownedBy } from '../oauth/owner';
import { ClockService } from '../clock/clock.service';
import { DomainError } from '../common/error-catalogue';
import { Consent } from '../consent/consent.entity';
import { Store } from '../database/store';
import { BankProfile } from '../profile/bank-profile';
import { scenarioRows, toScenarioResponse } from './scenario';
import { TrustedBeneficiary } from '../trusted-beneficiaries/trusted-beneficiary.entity';
import { CardAccount, CardTransaction } from '../card-accounts/card-account.entity';
import type { CreateScenarioDto, ScenarioResponse } from './scenario.dto';

/** A test suite's own PSU, accounts and consent: created and deleted as one, never visible to another suite. */
@Injectable()
export class ScenarioService {
  constructor(
    private readonly store: Store,
    private readonly clock: ClockService,
    private readonly profile: BankProfile,
  ) {}

  async create(request: CreateScenarioDto, owner: Owner): Promise<ScenarioResponse> {
    const scenarioId = randomUUID();
    const rows = scenarioRows(request, { scenarioId, consentId: randomUUID(), ownerId: owner ?? null, bic: this.profile.settings.bic }, this.clock.today());
    // All or nothing: a 201 means the whole scenario is stored.
    await this.store.write(async () => {
      await this.store.change(Psu).insert(rows.psu);
      await this.store.change(Account).insert(rows.accounts);
      await this.store.change(Balance).insert(rows.balances);
      await this.store.insertMany(Transaction, rows.transactions);
      await this.store.change(Consent).insert(rows.consent);
      if (rows.trustedBeneficiaries.length) await this.store.insertMany(TrustedBeneficiary, rows.trustedBeneficiaries);
      if (rows.cardAccounts.length) await this.store.insertMany(CardAccount, rows.cardAccounts);
      if (rows.cardTransactions.length) await this.store.insertMany(CardTransaction, rows.cardTransactions);
    });
    return toScenarioResponse(scenarioId, rows);
  }

  async delete(scenarioId: string, owner: Owner): Promise<void> {
    const deleted = await this.store.write(async () => {
      // The scenario's PSU carries its owner: another client's scenario is unknown here.
      if (!(await this.store.read(Psu).existsBy({ scenarioId, ...ownedBy(owner) }))) return 0;
      await this.store.change(Consent).delete({ scenarioId });
      await this.store.change(TrustedBeneficiary).delete({ scenarioId });
      // Card transactions go with their card accounts (ON DELETE CASCADE).
      await this.store.change(CardAccount).delete({ scenarioId });
      // Balances and transactions go with their accounts (ON DELETE CASCADE).
      await this.store.change(Account).delete({ scenarioId });
      return (await this.store.change(Psu).delete({ scenarioId })).affected;
    });
    if (!deleted) throw new DomainError({ messageId: 'XS2A023E', description: `scenario ${scenarioId} unknown` });
  }
}
