import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
import { Store } from '../database/store';
import { World } from '../world/world';
import { Sealer, sharedSecret } from './page-security';

/** How long a client's link opens a holder's page (AUTH_MODE=strict): long enough to paste it into a browser. */
const TICKET_LIFETIME_MS = 60 * 60 * 1000;

/**
 * A client's ticket to the holder's pages of its world (AUTH_MODE=strict; docs/security.md,
 * "Worlds"): a fixture PSU's password is public, so a page that shows or changes what a consent
 * grants (the permission dashboard, the revocation page) opens only the world of the client whose
 * link it was. Signed with a secret every instance shares; good for an hour.
 */
@Injectable()
export class WorldTickets implements OnModuleInit {
  private sealer: Sealer;

  private readonly strict: boolean;

  private readonly base: string;

  constructor(
    private readonly store: Store,
    config: ConfigService<Environment, true>,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
    this.base = config.get('PUBLIC_BASE_URL', { infer: true });
  }

  async onModuleInit(): Promise<void> {
    this.sealer = new Sealer(await sharedSecret(this.store, 'world-ticket'));
  }

  /** A client's link to a holder's page: `query` and, in AUTH_MODE=strict, the world's ticket. */
  link(path: string, world: World, query: Record<string, string> = {}): string {
    const search = new URLSearchParams(query);
    if (world.clientId !== null) search.set('ticket', this.sealer.sealed(['ticket', world.key], TICKET_LIFETIME_MS));
    return `${this.base}${path}${search.size ? `?${search}` : ''}`;
  }

  /** The world a ticket opens: the open world in AUTH_MODE=open (no ticket needed); null for none, an expired or a forged one. */
  worldOf(ticket: string): World | null {
    if (!this.strict) return World.open;
    const [kind, key] = this.sealer.opened(ticket) ?? [];
    return kind === 'ticket' && key ? World.ofClient(key) : null;
  }
}
