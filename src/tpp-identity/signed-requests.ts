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

  /**
   * The request spends `requestId` for the certificate, or fails with `spent()` where an earlier
   * request spent it. One insert, whose key decides: of two requests with one signature at once, on
   * any instance, the second finds the first's row. Owed (Store.oweInsertUnique): the request's own first write
   * makes it, so a POST pays no write of its own for it, and nothing the request stores outlives a
   * refused spend (docs/tpp-identity.md, "What a check costs").
   */
  spend(serialNumber: string, requestId: string, spent: () => Error): void {
    this.store.oweInsertUnique(SignedRequest, { serialNumber, requestId, spentAt: new Date().toISOString() }, spent);
  }
}
