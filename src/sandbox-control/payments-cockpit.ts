import { Injectable } from '@nestjs/common';
import { button, escapeHtml as escape, form, formValue, input, link, LISTED, section, status, table } from '../common/html';
import type { CockpitPage, CockpitSection } from '../core/cockpit-section';
import { Store } from '../database/store';
import { ownedBy, type World } from '../world/world';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import { Payment } from '../payment-initiation/payment.entity';
import { isAwaitingCreditorConfirmation, paymentMachine } from '../payment-initiation/payment.machine';
import { ScaService } from '../sca/sca.service';
import { vopBlockOf } from '../verification-of-payee/vop-status.dto';
import { filter } from './cockpit-pages';

/** The payments in the cockpit (docs/cockpit.md): the client's newest, filtered; one with its decisions, its payee confirmation and its cancellation. */
@Injectable()
export class PaymentsCockpit implements CockpitSection {
  readonly path = 'payments';

  constructor(
    private readonly store: Store,
    private readonly payments: PaymentInitiationService,
    private readonly sca: ScaService,
  ) {}

  async overview(world: World, query: Record<string, unknown>): Promise<string> {
    const [paymentStatus, service] = [formValue(query.paymentStatus), formValue(query.service)];
    const payments = await this.store.read(Payment).find({
      where: {
        ...ownedBy(world),
        ...(paymentStatus ? { status: paymentStatus as Payment['status'] } : {}),
        ...(service ? { service: service as Payment['service'] } : {}),
      },
      order: { id: 'DESC' },
      take: LISTED,
    });
    return section(
      'Payments',
      filter('/cockpit', [
        { name: 'paymentStatus', label: 'Status', options: Object.keys(paymentMachine.root.states), value: paymentStatus },
        { name: 'service', label: 'Service', options: ['payments', 'bulk-payments', 'periodic-payments'], value: service },
      ]) +
        table(
          ['payment', 'service / product', 'amount', 'debtor', 'execution date', 'status'],
          payments.map((payment) => [
            link(`/cockpit/payments/${payment.id}`, payment.id),
            `${payment.service} / ${payment.product}`,
            `${payment.amount} ${payment.currency}`,
            payment.debtorIban,
            payment.executionDate ?? '',
            status(payment.status),
          ]),
        ),
      'payments',
    );
  }

  async page(id: string, world: World): Promise<CockpitPage> {
    const payment = await this.payments.findAnyProduct(id, world);
    const decide = (kind: string, label: string) =>
      form(
        `/cockpit/payments/${id}/decision`,
        `<input type="hidden" name="kind" value="${kind}">${input('psuId', 'PSU ID', 'georg.mustermann')} ${button(`Approve ${label}`, 'decision', 'approve')} ${button(`Deny ${label}`, 'decision', 'deny')}`,
      );
    const confirm = isAwaitingCreditorConfirmation(payment.status)
      ? form(`/cockpit/payments/${id}/creditor-confirmation`, button('Pay anyway (confirm the payee, as the TPP)'))
      : '';
    const actions =
      confirm +
      decide('payment', 'payment') +
      form(`/cockpit/payments/${id}/cancel`, button('Cancel (as the TPP)')) +
      decide('cancellation', 'cancellation');
    const data = table(
      ['field', 'value'],
      [
        ['paymentId', payment.id],
        ['service / product', `${payment.service} / ${payment.product}`],
        ['status', status(payment.status)],
        ['payee check', payeeCheckOf(payment)],
        ['body', { html: `<pre>${escape(JSON.stringify(payment.body, null, 2))}</pre>` }],
      ],
    );
    return {
      title: `Payment ${id}`,
      sections: [section('Data', data)],
      resource: { machine: paymentMachine, status: payment.status, actions },
    };
  }

  async act(id: string, action: string, body: Record<string, unknown>, world: World): Promise<string | undefined> {
    switch (action) {
      case 'decision': {
        const kind = body.kind === 'cancellation' ? 'cancellation' : 'payment';
        const { status } = await this.sca.decide(
          { kind, resourceId: id },
          body.decision === 'deny' ? 'deny' : 'approve',
          { psuId: formValue(body.psuId) },
          world,
          'cockpit',
        );
        return `The payment is ${status}.`;
      }
      case 'creditor-confirmation': {
        const { payment } = await this.payments.confirmCreditor(await this.payments.findById(id, world), id, world);
        return `The payee is confirmed: the payment is ${payment.status} and waits for the account holder.`;
      }
      case 'cancel': {
        const outcome = await this.payments.cancel(await this.payments.findById(id, world), id, world);
        return outcome.cancelled ? 'The payment is cancelled.' : 'The cancellation needs the account holder: approve it below.';
      }
      default:
        return undefined;
    }
  }
}

/** A payment's Verification of Payee result, a line per creditor (docs/verification-of-payee.md). */
function payeeCheckOf(payment: Payment): string {
  const { originalTransactionInformationAndVopStatus: results } = vopBlockOf(payment);
  if (results === undefined) return 'not checked';
  return results
    .map(
      ({ transactionStatus, creditorNameMatch, matchedCreditorName }) =>
        `${creditorNameMatch} (${transactionStatus})${matchedCreditorName ? `: registered as ${matchedCreditorName}` : ''}`,
    )
    .join('; ');
}
