import { Injectable } from '@nestjs/common';
import { ClockService } from '../clock/clock.service';
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

  /** Sets the date, then lets every time rule catch up at once instead of on the next read. */
  async setClock(today: string): Promise<{ today: string }> {
    return this.moveClock(() => today);
  }

  /** Moves the date on by `days`; the calendar of the sandbox ends with year 9999, as `YYYY-MM-DD` does. */
  async advanceClock(days: number): Promise<{ today: string }> {
    return this.moveClock((today) => {
      const next = addDays(today, days);
      if (!isDateOnly(next)) throw new FormatError('days', `the clock cannot move past 9999-12-31 (it is ${today})`);
      return next;
    });
  }

  private async moveClock(to: (today: string) => string): Promise<{ today: string }> {
    const today = await this.clock.move(to);
    await this.consents.expireDue();
    await this.payments.executeDue();
    return { today };
  }
}
