import { Injectable } from '@nestjs/common';
import { Store } from '../database/store';
import { SignedRequest } from './signed-request.entity';

/**
 * The X-Request-IDs each certificate has signed (docs/tpp-identity.md, "A signature binds its
 * request"). Berlin Group's clients sign neither the method nor the path, so a signature binds its
 * request through its X-Request-ID: spent by the first request that carries it, whatever that
 * request's answer, on every instance.
 */
@Injectable()
export class SignedRequests {
  constructor(private readonly store: Store) {}

  /** Spends `requestId` for the certificate; false when an earlier request spent it. */
  spend(serialNumber: string, requestId: string): Promise<boolean> {
    return this.store.write(async () => {
      // Two requests with one signature at once: the second waits, then finds the first's row.
      await this.store.lock(`signed-request:${serialNumber}:${requestId}`);
      if (await this.store.read(SignedRequest).existsBy({ serialNumber, requestId })) return false;
      await this.store.insert(SignedRequest, { serialNumber, requestId, spentAt: new Date().toISOString() });
      return true;
    });
  }
}
