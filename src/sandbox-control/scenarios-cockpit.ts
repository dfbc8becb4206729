import { Injectable } from '@nestjs/common';
import { In, IsNull, Not } from 'typeorm';
import { Account, Psu } from '../bank/account.entity';
import { link, LISTED, section, table } from '../common/html';
import { Consent } from '../consent/consent.entity';
import type { CockpitSection } from '../core/cockpit-section';
import { Store } from '../database/store';
import { ownedBy, type World } from '../world/world';

/** The client's newest scenarios in the cockpit's overview (docs/cockpit.md): PSU, accounts and consent of each. */
@Injectable()
export class ScenariosCockpit implements CockpitSection {
  readonly path = 'scenarios';

  constructor(private readonly store: Store) {}

  async overview(world: World): Promise<string> {
    const consents = await this.store
      .read(Consent)
      .find({ where: { scenarioId: Not(IsNull()), ...ownedBy(world) }, order: { id: 'DESC' }, take: LISTED });
    const scenarioIds = consents.map(({ scenarioId }) => scenarioId!);
    const psus = await this.store.read(Psu).findBy({ scenarioId: In(scenarioIds) });
    const accounts = await this.store.read(Account).findBy({ scenarioId: In(scenarioIds) });
    const rows = consents.map((consent) => [
      consent.scenarioId!,
      psus.find((psu) => psu.scenarioId === consent.scenarioId)?.psuId ?? '',
      accounts
        .filter((account) => account.scenarioId === consent.scenarioId)
        .map((account) => account.iban)
        .join(', '),
      link(`/cockpit/consents/${consent.id}`, `${consent.id} (${consent.status})`),
    ]);
    return section('Scenarios', table(['scenario', 'PSU', 'accounts', 'consent'], rows), 'scenarios');
  }
}
