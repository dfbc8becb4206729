import { Injectable } from '@nestjs/common';
import { button, form, formValue, input, LISTED, link, section, status, table } from '../common/html';
import type { CockpitPage, CockpitSection } from '../core/cockpit-section';
import { Store } from '../database/store';
import { ownedBy, type World } from '../world/world';
import { ScaService } from '../sca/sca.service';
import { SigningBasket } from './signing-basket.entity';
import { basketMachine } from './signing-basket.machine';
import { SigningBasketService } from './signing-basket.service';

/** The signing baskets in the cockpit (docs/cockpit.md): the client's newest, each with its members, its decision and its deletion. */
@Injectable()
export class SigningBasketsCockpit implements CockpitSection {
  readonly path = 'signing-baskets';

  constructor(
    private readonly store: Store,
    private readonly baskets: SigningBasketService,
    private readonly sca: ScaService,
  ) {}

  async overview(world: World): Promise<string> {
    const baskets = await this.store.read(SigningBasket).find({ where: ownedBy(world), order: { id: 'DESC' }, take: LISTED });
    const rows = baskets.map((basket) => [
      link(`/cockpit/signing-baskets/${basket.id}`, basket.id),
      String(basket.paymentIds.length),
      String(basket.consentIds.length),
      status(basket.status),
    ]);
    return section('Signing baskets', table(['basket', 'payments', 'consents', 'status'], rows), 'signing-baskets');
  }

  async page(id: string, world: World): Promise<CockpitPage> {
    const basket = await this.baskets.find(id, world);
    const actions =
      form(
        `/cockpit/signing-baskets/${id}/decision`,
        `${input('psuId', 'PSU ID', 'georg.mustermann')} ${button('Approve', 'decision', 'approve')} ${button('Deny', 'decision', 'deny')}`,
      ) + form(`/cockpit/signing-baskets/${id}/delete`, button('Delete (as the TPP)'));
    const members = [
      ...basket.paymentIds.map((member) => ['payment', link(`/cockpit/payments/${member}`, member)]),
      ...basket.consentIds.map((member) => ['consent', link(`/cockpit/consents/${member}`, member)]),
    ];
    const data = table(['field', 'value'], [['basketId', basket.id], ['status', status(basket.status)], ...members]);
    return {
      title: `Signing basket ${id}`,
      sections: [section('Data', data)],
      resource: { machine: basketMachine, status: basket.status, actions },
    };
  }

  async act(id: string, action: string, body: Record<string, unknown>, world: World): Promise<string | undefined> {
    if (action === 'decision') {
      const { status } = await this.sca.decide(
        { kind: 'basket', resourceId: id },
        body.decision === 'deny' ? 'deny' : 'approve',
        { psuId: formValue(body.psuId) },
        world,
        'cockpit',
      );
      return `The signing basket is ${status}.`;
    }
    if (action === 'delete') {
      await this.baskets.delete(id, world);
      return 'The signing basket is deleted.';
    }
    return undefined;
  }
}
