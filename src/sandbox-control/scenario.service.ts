import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { World, ownedBy } from '../world/world';
import { ClockService } from '../clock/clock.service';
import { refusal } from '../common/error-catalogue';
import { Consent } from '../consent/consent.entity';
import { Store } from '../database/store';
import { BankProfile } from '../profile/bank-profile';
import { scenarioRows, toScenarioResponse } from './scenario';
import type { CreateScenarioDto, ScenarioResponse } from './scenario.dto';
import type { ScenarioPart } from '../core/sandbox-service';

/** A test suite's own PSU, accounts and consent: created and deleted as one, never visible to another suite. */
@Injectable()
export class ScenarioService {
  constructor(
    private readonly store: Store,
    private readonly clock: ClockService,
    private readonly profile: BankProfile,
  ) {}

  /** The offered services' parts of a scenario. */
  private get parts(): ScenarioPart[] {
    return this.profile.services.flatMap(({ scenario }) => (scenario ? [scenario] : []));
  }

  async create(request: CreateScenarioDto, world: World): Promise<ScenarioResponse> {
    const scenarioId = randomUUID();
    const rows = scenarioRows(
      request,
      { scenarioId, consentId: randomUUID(), ownerId: world.ownerId, bic: this.profile.settings.bic },
      this.clock.today(world),
      this.parts,
    );
    // All or nothing: a 201 means the whole scenario is stored.
    await this.store.write(async () => {
      await this.store.insert(Psu, rows.psu);
      await this.store.insertMany(Account, rows.accounts);
      await this.store.insertMany(Balance, rows.balances);
      await this.store.insertMany(Transaction, rows.transactions);
      await this.store.insert(Consent, rows.consent);
      for (const { entity, rows: serviceRows } of rows.services) if (serviceRows.length) await this.store.insertMany(entity, serviceRows);
    });
    return toScenarioResponse(scenarioId, rows);
  }

  async delete(scenarioId: string, world: World): Promise<void> {
    const deleted = await this.store.write(async () => {
      // The scenario's PSU carries its world: another client's scenario is unknown here.
      if (!(await this.store.read(Psu).existsBy({ scenarioId, ...ownedBy(world) }))) return 0;
      await this.store.change(Consent).delete({ scenarioId });
      for (const entity of this.parts.flatMap((part) => part.tables)) await this.store.change(entity).delete({ scenarioId });
      // Balances and transactions go with their accounts (ON DELETE CASCADE).
      await this.store.change(Account).delete({ scenarioId });
      return (await this.store.change(Psu).delete({ scenarioId })).affected;
    });
    if (!deleted) throw refusal('scenarioUnknown', `scenario ${scenarioId} unknown`);
  }
}
