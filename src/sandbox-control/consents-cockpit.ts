import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { button, escapeHtml as escape, form, formValue, input, link, LISTED, section, status, table } from '../common/html';
import { Consent } from '../consent/consent.entity';
import { consentMachine } from '../consent/consent.machine';
import { ConsentService } from '../consent/consent.service';
import type { CockpitPage, CockpitSection } from '../core/cockpit-section';
import { Store } from '../database/store';
import { ownedBy, type World } from '../world/world';
import { ScaService } from '../sca/sca.service';
import { filter } from './cockpit-pages';

/** The consents TPPs created, in the cockpit (docs/cockpit.md): the client's newest, filtered; one with its decision and its deletion. */
@Injectable()
export class ConsentsCockpit implements CockpitSection {
  readonly path = 'consents';

  constructor(
    private readonly store: Store,
    private readonly consents: ConsentService,
    private readonly sca: ScaService,
  ) {}

  async overview(world: World, query: Record<string, unknown>): Promise<string> {
    const consentStatus = formValue(query.consentStatus);
    const consents = await this.store.read(Consent).find({
      where: {
        fixture: false,
        scenarioId: IsNull(),
        ...ownedBy(world),
        ...(consentStatus ? { status: consentStatus as Consent['status'] } : {}),
      },
      order: { id: 'DESC' },
      take: LISTED,
    });
    return section(
      'Consents',
      filter('/cockpit', [
        { name: 'consentStatus', label: 'Status', options: Object.keys(consentMachine.root.states), value: consentStatus },
      ]) +
        table(
          ['consent', 'valid until', 'frequency per day', 'status'],
          consents.map((consent) => [
            link(`/cockpit/consents/${consent.id}`, consent.card ? `${consent.id} (confirmation of funds)` : consent.id),
            consent.validUntil,
            String(consent.frequencyPerDay),
            status(consent.status),
          ]),
        ),
      'consents',
    );
  }

  async page(id: string, world: World): Promise<CockpitPage> {
    const consent = await this.consents.findCurrent(id, world);
    const actions =
      form(
        `/cockpit/consents/${id}/decision`,
        `${input('psuId', 'PSU ID', 'georg.mustermann')} ${button('Approve', 'decision', 'approve')} ${button('Deny', 'decision', 'deny')}`,
      ) + form(`/cockpit/consents/${id}/delete`, button('Delete (as the TPP)'));
    const data = table(
      ['field', 'value'],
      [
        ['consentId', consent.id],
        ['status', status(consent.status)],
        ['validUntil', consent.validUntil],
        ['recurringIndicator', String(consent.recurringIndicator)],
        ['frequencyPerDay', String(consent.frequencyPerDay)],
        ['access', { html: `<pre>${escape(JSON.stringify(consent.access, null, 2))}</pre>` }],
        // A consent for the confirmation of funds shows its card (docs/funds-confirmation.md).
        ...(consent.card
          ? [['card', { html: `<pre>${escape(JSON.stringify(consent.card, null, 2))}</pre>` }] as [string, { html: string }]]
          : []),
      ],
    );
    return {
      title: `Consent ${id}`,
      sections: [section('Data', data)],
      resource: { machine: consentMachine, status: consent.status, actions },
    };
  }

  async act(id: string, action: string, body: Record<string, unknown>, world: World): Promise<string | undefined> {
    if (action === 'decision') {
      const { status } = await this.sca.decide(
        { kind: 'consent', resourceId: id },
        body.decision === 'deny' ? 'deny' : 'approve',
        { psuId: formValue(body.psuId) },
        world,
        'cockpit',
      );
      return `The consent is ${status}.`;
    }
    if (action === 'delete') {
      await this.consents.delete(id, world);
      return 'The consent is deleted.';
    }
    return undefined;
  }
}
