import { Injectable } from '@nestjs/common';
import type { World } from '../world/world';

/** Whether the bank exempts a payment from `debtorIban` to every one of `creditorIbans` from SCA, as its client may see them. */
export type ScaExemption = (debtorIban: string, creditorIbans: string[], world: World) => Promise<boolean>;

/**
 * The SCA exemptions a payment is asked for (PSD2 RTS articles 10-18): a service that grants one
 * lists its rule in its descriptor's ports (docs/trusted-beneficiaries.md); a bank with none
 * exempts nothing, at no cost.
 */
@Injectable()
export class ScaExemptions {
  private readonly rules: ScaExemption[] = [];

  register(rule: ScaExemption): void {
    this.rules.push(rule);
  }

  async exempts(debtorIban: string, creditorIbans: string[], world: World): Promise<boolean> {
    for (const rule of this.rules) if (await rule(debtorIban, creditorIbans, world)) return true;
    return false;
  }
}
