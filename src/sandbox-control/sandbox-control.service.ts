import { Injectable } from '@nestjs/common';
import { ClockService } from '../common/clock.service';
import { addDays, isDateOnly } from '../common/dates';
import { FormatError } from '../common/error-catalogue';
import { ConsentService } from '../consent/consent.service';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';

@Injectable()
export class SandboxControlService {
  constructor(
    private readonly clock: ClockService,
    private readonly consents: ConsentService,
    private readonly payments: PaymentInitiationService,
  ) {}

  /** Today moved on by `days`; the calendar of the sandbox ends with year 9999, as `YYYY-MM-DD` does. */
  advancedBy(days: number): string {
    const today = addDays(this.clock.today(), days);
    if (!isDateOnly(today)) throw new FormatError('days', `the clock cannot move past 9999-12-31 (it is ${this.clock.today()})`);
    return today;
  }

  /** Sets the date, then lets every time rule catch up at once instead of on the next read. */
  async moveClock(today: string): Promise<{ today: string }> {
    await this.clock.set(today);
    await this.consents.expireDue();
    await this.payments.executeDue();
    return { today };
  }
}
