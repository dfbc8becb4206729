import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Account, Balance, Psu, Transaction } from '../account-information/account.entity';
import { Owner, ownedBy } from '../auth/owner';
import { ClockService } from '../common/clock.service';
import { DomainError } from '../common/error-catalogue';
import { Consent } from '../consent/consent.entity';
import { GroupCommit } from '../database/group-commit';
import { scenarioRows, toScenarioResponse } from './scenario';
import type { CreateScenarioDto, ScenarioResponse } from './scenario.dto';

/** A test suite's own PSU, accounts and consent: created and deleted as one, never visible to another suite. */
@Injectable()
export class ScenarioService {
  constructor(
    private readonly writes: GroupCommit,
    private readonly clock: ClockService,
  ) {}

  async create(request: CreateScenarioDto, owner: Owner): Promise<ScenarioResponse> {
    const scenarioId = randomUUID();
    const rows = scenarioRows(request, { scenarioId, consentId: randomUUID(), ownerId: owner ?? null }, this.clock.today());
    // All or nothing: a 201 means the whole scenario is stored.
    await this.writes.run(async (manager) => {
      await manager.insert(Psu, rows.psu);
      await manager.insert(Account, rows.accounts);
      await manager.insert(Balance, rows.balances);
      // TypeORM's deep-partial type cannot follow the open-ended JSON body; the rows are whole entities.
      if (rows.transactions.length) await manager.insert(Transaction, rows.transactions as QueryDeepPartialEntity<Transaction>[]);
      await manager.insert(Consent, rows.consent);
    });
    return toScenarioResponse(scenarioId, rows);
  }

  async delete(scenarioId: string, owner: Owner): Promise<void> {
    const deleted = await this.writes.run(async (manager) => {
      // The scenario's PSU carries its owner: another client's scenario is unknown here.
      if (!(await manager.existsBy(Psu, { scenarioId, ...ownedBy(owner) }))) return 0;
      await manager.delete(Consent, { scenarioId });
      // Balances and transactions go with their accounts (ON DELETE CASCADE).
      await manager.delete(Account, { scenarioId });
      return (await manager.delete(Psu, { scenarioId })).affected;
    });
    if (!deleted) throw new DomainError({ messageId: 'XS2A023E', description: `scenario ${scenarioId} unknown` });
  }
}
