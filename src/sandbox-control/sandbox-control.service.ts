import { Injectable } from '@nestjs/common';
import { ClockService } from '../common/clock.service';
import { ConsentService } from '../consent/consent.service';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';

@Injectable()
export class SandboxControlService {
  constructor(
    private readonly clock: ClockService,
    private readonly consents: ConsentService,
    private readonly payments: PaymentInitiationService,
  ) {}

  /** Sets the date, then lets every time rule catch up at once instead of on the next read. */
  async moveClock(today: string): Promise<{ today: string }> {
    await this.clock.set(today);
    await this.consents.expireDue();
    await this.payments.executeDue();
    return { today };
  }
}
