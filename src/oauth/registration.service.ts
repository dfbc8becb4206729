import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { OAuthError, detail } from '../common/error-catalogue';
import { Store } from '../database/store';
import { BankProfile } from '../profile/bank-profile';
import { CertificatesService } from '../tpp-identity/certificates.service';
import { TppClient } from './client.entity';
import { certificateRefused, ClientMetadata } from './client-metadata';
import { bearerToken, hashMatches, newToken, sha256 } from './credentials';
import { World } from '../world/world';
import { WorldPurge } from '../database/world-purge';
import { TokenService } from './token.service';
import { RegistrationThrottle } from './registration-throttle';

/** A client just registered, with the secret and the registration access token made for it: shown this once (RFC 7591 §3.2.1), kept only as hashes. */
export interface Registered {
  client: TppClient;
  clientSecret: string;
  registrationToken: string;
}

/**
 * Dynamic client registration (RFC 7591, management by RFC 7592; docs/security.md "Clients
 * register themselves"): a TPP, or each worker of its CI, registers a client and gets its
 * credentials and a world of its own. The profile may close it (`tpp.registration: closed`).
 */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly store: Store,
    private readonly profile: BankProfile,
    private readonly certificates: CertificatesService,
    private readonly purge: WorldPurge,
    private readonly tokens: TokenService,
    private readonly throttle: RegistrationThrottle,
  ) {}

  get open(): boolean {
    return this.profile.tpp.registration === 'open';
  }

  /** Registers a client from `address` (REGISTRATIONS_PER_HOUR bounds how many an hour). */
  async register({ clientName, redirectUris, certificate }: ClientMetadata, address: string): Promise<Registered> {
    this.assertOpen();
    const serialNumber = certificate === null ? null : await this.certificates.claimable(certificate);
    if (certificate !== null && serialNumber === null) throw certificateRefused();
    const [clientSecret, registrationToken] = [newToken(), newToken()];
    const client = Object.assign(new TppClient(), {
      clientId: randomUUID(),
      secretHash: sha256(clientSecret),
      name: clientName,
      redirectUris,
      registrationTokenHash: sha256(registrationToken),
      registeredAt: new Date().toISOString(),
    });
    await this.store.write(async () => {
      await this.throttle.admit(address);
      await this.store.insert(TppClient, client);
      // In the same write: a certificate another claimed meanwhile leaves no client behind.
      if (serialNumber !== null && !(await this.certificates.claim(serialNumber, World.ofClient(client.clientId))))
        throw certificateRefused();
    });
    return { client, clientSecret, registrationToken };
  }

  /** The client the registration access token is for (RFC 7592 §2); 401 invalid_token for any other, unknown or none. */
  async find(clientId: string, authorization: string | undefined): Promise<TppClient> {
    const token = bearerToken(authorization);
    const client = token && clientId.length <= 64 ? await this.store.findByKey(TppClient, clientId) : null;
    if (!client || !hashMatches(client.registrationTokenHash, token!)) {
      throw new OAuthError(
        detail(
          'registrationTokenInvalid',
          'send the registration access token the registration answered, as "Authorization: Bearer <token>"',
        ),
        'invalid_token',
      );
    }
    return client;
  }

  /**
   * The client and its world are gone (RFC 7592 §2.3; docs/security.md, "A world's life"): every
   * row of the world, its tokens (on every instance, at once), and its certificates, revoked.
   */
  async delete(client: TppClient): Promise<void> {
    await this.store.write(async () => {
      await this.purge.purge({ clientId: client.clientId, key: World.ofClient(client.clientId).key }, 'delete');
      await this.tokens.forget(client.clientId);
    });
  }

  private assertOpen(): void {
    if (!this.open)
      throw new OAuthError(
        detail('registrationClosed', 'this bank registers no clients (tpp.registration: closed): use the client credentials it handed out'),
        'access_denied',
      );
  }
}
