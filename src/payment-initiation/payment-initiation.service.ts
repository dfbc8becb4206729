import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Balance } from '../account-information/account.entity';
import { ClockService } from '../common/clock.service';
import { DomainError } from '../common/error-catalogue';
import { applyEvent, MachineBinding, nextStatus } from '../common/state-machine';
import { Environment } from '../config/environment';
import { Payment } from './payment.entity';
import { initialPaymentStatus, PaymentContext, paymentMachine, PaymentStatus } from './payment.machine';
import { PaymentType } from './payment-products';
import { checkDates, PaymentBody, termsOf } from './payment-terms';

const contextOf = ({ amount, executionDate, product }: Pick<Payment, 'amount' | 'executionDate' | 'product'>): PaymentContext => ({
  amount,
  executionDate,
  instant: product === 'instant-sepa-credit-transfers',
});

@Injectable()
export class PaymentInitiationService {
  private readonly machine: MachineBinding<Payment, typeof paymentMachine>;

  constructor(
    @InjectRepository(Payment) payments: Repository<Payment>,
    @InjectRepository(Balance) private readonly balances: Repository<Balance>,
    private readonly clock: ClockService,
    private readonly config: ConfigService<Environment, true>,
  ) {
    this.machine = { repository: payments, machine: paymentMachine, contextOf };
  }

  /** Stores the payment, RCVD: once answered 200 it is in the database. */
  async initiate(type: PaymentType, body: PaymentBody): Promise<Payment> {
    checkDates(body, this.clock.today());
    const terms = termsOf(body);
    const payment = this.machine.repository.create({
      id: randomUUID(),
      ...type,
      ...terms,
      status: initialPaymentStatus(contextOf({ ...terms, product: type.product })),
      body,
    });
    await this.machine.repository.insert(payment);
    return payment;
  }

  /** The payment as it stands; in auto mode its first read completes SCA (decisions §2). */
  async find(type: PaymentType, paymentId: string): Promise<Payment> {
    const payment = await this.findStored(type, paymentId);
    if (this.config.get('SCA_MODE', { infer: true }) !== 'auto') return payment;
    const available = await this.balances.findOneBy({ accountIban: payment.debtorIban, balanceType: 'interimAvailable' });
    const event = { type: 'SCA_COMPLETED', today: this.clock.today(), available: available?.amount ?? null } as const;
    return (await applyEvent(this.machine, payment, event)).entity;
  }

  /** DELETE: RCVD is cancelled at once; PDNG needs the holder to authorise the cancellation. */
  async cancel(type: PaymentType, paymentId: string): Promise<{ cancelled: true } | { cancelled: false; status: PaymentStatus }> {
    const { entity: payment, accepted } = await applyEvent(this.machine, await this.findStored(type, paymentId), { type: 'CANCEL' });
    if (accepted) return { cancelled: true };
    if (nextStatus(paymentMachine, payment.status, contextOf(payment), { type: 'CANCELLATION_AUTHORISED' })) {
      return { cancelled: false, status: payment.status };
    }
    throw new DomainError({ messageId: 'XS2A018E', description: `payment ${paymentId} is ${payment.status} and cannot be cancelled` });
  }

  private async findStored({ service, product }: PaymentType, paymentId: string): Promise<Payment> {
    const payment = await this.machine.repository.findOneBy({ id: paymentId, service, product });
    if (!payment) throw new DomainError({ messageId: 'XS2A015E', description: `payment ${paymentId} unknown` });
    return payment;
  }
}
