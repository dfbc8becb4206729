import { Injectable } from '@nestjs/common';
import type { World } from '../world/world';
import type { CardAccountReference } from './consent.entity';

/**
 * Accounts a consent names beside payment accounts (card accounts, by masked PAN): the service
 * that offers them lists them in its descriptor's ports (docs/development.md, "A service plugs
 * in"), so that consents, their holder check and the SCA pages know them without knowing the service.
 */
export interface AccountKind {
  /** The bank's own, as a consent for all accounts names them, in order. */
  bankOwned(): CardAccountReference[];
  /** Those a PSU holds, as the holder check compares them. */
  heldBy(psuId: string): Promise<CardAccountReference[]>;
  /** The names of those among `maskedPans` that `world` may see, as the consent page shows them. */
  names(maskedPans: string[], world: World): Promise<[string, string][]>;
}

@Injectable()
export class AccountKinds {
  private readonly kinds: AccountKind[] = [];

  register(kind: AccountKind): void {
    this.kinds.push(kind);
  }

  bankOwned(): CardAccountReference[] {
    return this.kinds.flatMap((kind) => kind.bankOwned());
  }

  async heldBy(psuId: string): Promise<CardAccountReference[]> {
    return (await Promise.all(this.kinds.map((kind) => kind.heldBy(psuId)))).flat();
  }

  async names(maskedPans: string[], world: World): Promise<[string, string][]> {
    return (await Promise.all(this.kinds.map((kind) => kind.names(maskedPans, world)))).flat();
  }
}
