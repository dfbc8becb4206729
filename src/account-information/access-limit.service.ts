import { Injectable } from '@nestjs/common';
import { ClockService } from '../clock/clock.service';
import { refusal } from '../common/error-catalogue';
import { assertPsuIpAddress } from '../http/request.guard';
import type { Consent } from '../consent/consent.entity';
import { Store } from '../database/store';
import { World } from '../world/world';
import { AccessCount } from './access-count.entity';

/**
 * Berlin Group frequencyPerDay: a read without the account holder present (no PSU-IP-Address)
 * counts once against each account it reads, per sandbox day. The bank's scenery (fixture and
 * scenario consents) is shared by every suite and is not counted.
 */
@Injectable()
export class AccessLimitService {
  constructor(
    private readonly store: Store,
    private readonly clock: ClockService,
  ) {}

  /** Counts the access to `accounts` (IBANs, or card accounts' masked PANs), or refuses it (429) and counts nothing when any account's allowance is used up. */
  async spend(consent: Consent, accounts: string[], psuIpAddress: string | undefined): Promise<void> {
    // The account holder is present: nothing is counted, but the header must be an address.
    if (psuIpAddress !== undefined) return assertPsuIpAddress(psuIpAddress);
    if (consent.fixture) return;
    const day = this.clock.today(World.of(consent));
    await this.store.write(async () => {
      for (const accountIban of accounts) {
        const key = { consentId: consent.id, accountIban, day };
        await this.store.insertIfAbsent(AccessCount, { ...key, accesses: 0 });
        // Compare-and-increment: of racing requests only as many as the allowance win.
        const { affected } = await this.store
          .change(AccessCount)
          .createQueryBuilder()
          .update()
          .set({ accesses: () => 'accesses + 1' })
          .where(key)
          .andWhere('accesses < :limit', { limit: consent.frequencyPerDay })
          .execute();
        if (!affected) {
          throw refusal(
            'frequencyUsedUp',
            `consent ${consent.id} has used its ${consent.frequencyPerDay} accesses per day to ${accountIban} on ${day}`,
          );
        }
      }
    });
  }
}
