import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LessThanOrEqual } from 'typeorm';
import { AnswerMemo } from '../common/answer-memo';
import type { Shared } from '../database/change-feed';
import { OAuthError, refusal, detail } from '../common/error-catalogue';
import { Environment } from '../config/environment';
import { Store } from '../database/store';
import { AccessToken, TppClient } from './client.entity';
import { bearerToken, hashMatches, newToken, sha256 } from './credentials';
import { SignInThrottle } from './sign-ins';
import { World } from '../world/world';

/** The bank's token lifetime, in seconds. */
export const TOKEN_LIFETIME = 599;

/** How to get a token, in the 401 that asks for one and in the document's Authorize dialog (docs/security.md). */
export const HOW_TO_GET_ONE = {
  open: 'POST /oauth2/token with grant_type=client_credentials and any client_id answers one',
  strict:
    'POST /oauth2/token with grant_type=client_credentials, a client_id and its client_secret answers one: those POST /register (RFC 7591) answers, or a fixture client’s (docs/security.md)',
};

/** Issues client-credentials tokens and tells, per request, whose data the request may see. */
@Injectable()
export class TokenService {
  private readonly strict: boolean;
  /** An issued token's row never changes (expired ones are only ever deleted), so each is read once, not on every request. */
  private readonly issued = new AnswerMemo<AccessToken>();
  /** Clients deleted (RFC 7592) whose tokens an instance may still hold in memory: refused on every instance from the deletion on. */
  private readonly deleted: Shared<boolean>;

  constructor(
    private readonly store: Store,
    private readonly throttle: SignInThrottle,
    config: ConfigService<Environment, true>,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
    this.deleted = store.shared(
      'deleted-clients',
      async (clientId) => ((await store.findByKey(TppClient, clientId)) ? undefined : true),
      async () => [],
      false,
    );
  }

  /** Inside the write that deletes the client and its world: its tokens speak for no one, on any instance (docs/security.md, "A world's life"). */
  forget(clientId: string): Promise<void> {
    return this.store.announce(this.deleted, clientId, true);
  }

  /**
   * OAuth2 client credentials grant (RFC 6749 §4.4). The client authenticates with HTTP Basic or
   * with `client_id` (and `client_secret`) in the form (§2.3.1), as the bank's own clients do; in
   * open mode a client_id alone will do (the bank authenticates its clients by their certificate).
   */
  async issue(
    authorization: string | undefined,
    form: TokenForm,
    address: string,
  ): Promise<{ token: string; expiresIn: number; scope?: string }> {
    const [clientId, clientSecret] = clientCredentials(authorization, form);
    // Guessing a client's secret is bounded (docs/security.md, "Guessing is bounded"); without a client ID there is nothing to guess.
    const client =
      clientId === undefined
        ? await this.authenticateClient(clientId, clientSecret)
        : await this.throttle.attempt(
            `client:${clientId}@${address}`,
            () => this.authenticateClient(clientId, clientSecret),
            (error) => error instanceof OAuthError && error.error === 'invalid_client',
          );
    const grantType = form.grant_type;
    if (grantType === undefined || grantType === '') throw grantError('invalid_request', 'grant_type is required');
    if (grantType !== 'client_credentials') throw grantError('unsupported_grant_type', 'grant_type must be client_credentials');
    const token = newToken();
    // A client the sandbox does not know (open mode only) gets a token that nothing will look up:
    // open mode accepts any bearer token.
    if (client) await this.keep(token, client.clientId);
    return { token, expiresIn: TOKEN_LIFETIME, ...(typeof form.scope === 'string' ? { scope: form.scope } : {}) };
  }

  private async keep(token: string, clientId: string): Promise<void> {
    const now = Date.now();
    await this.store.write(async () => {
      await this.store.insert(AccessToken, {
        tokenHash: sha256(token),
        clientId,
        expiresAt: new Date(now + TOKEN_LIFETIME * 1000).toISOString(),
      });
      // Housekeeping: expired tokens are of no use to anyone.
      await this.store.change(AccessToken).delete({ expiresAt: LessThanOrEqual(new Date(now).toISOString()) });
    });
  }

  /**
   * The world a request acts for. Open mode: nobody in particular (everything is visible), and
   * the bearer token is only checked for presence where `bearer` is `required`. Strict mode: the
   * client of an issued, unexpired token; without one, where `bearer` is `optional` (tpp.oauth),
   * null: the request's certificate names its client (CertificateClients).
   */
  async worldOf(authorization: string | undefined, bearer: 'required' | 'optional' | 'strictOnly'): Promise<World | null> {
    const token = bearerToken(authorization);
    // Where the token is optional, a broken one is still refused: only a request without the header goes on without it.
    if (
      !token &&
      (bearer === 'required' || (bearer === 'optional' && authorization !== undefined) || (this.strict && bearer === 'strictOnly'))
    ) {
      throw refusal(
        'tokenMissing',
        `an Authorization header "Bearer <token>" is required: ${this.strict ? HOW_TO_GET_ONE.strict : HOW_TO_GET_ONE.open}`,
      );
    }
    if (!this.strict) return World.open;
    if (!token) return null;
    const tokenHash = sha256(token);
    const issued = this.issued.recall(AccessToken, tokenHash) ?? (await this.readIssued(tokenHash));
    if (issued.expiresAt <= new Date().toISOString()) {
      throw refusal('tokenExpired', `the bearer token expired at ${issued.expiresAt}`);
    }
    await this.deleted.fresh(issued.clientId);
    if (this.deleted.get(issued.clientId)) throw refusal('tokenUnknown', 'the bearer token was not issued by this sandbox');
    return World.ofClient(issued.clientId);
  }

  private async readIssued(tokenHash: string): Promise<AccessToken> {
    const issued = await this.store.findByKey(AccessToken, tokenHash);
    if (!issued) throw refusal('tokenUnknown', 'the bearer token was not issued by this sandbox');
    return this.issued.keep(AccessToken, tokenHash, issued);
  }

  /** The client, once authenticated (null: one open mode does not know). Strict mode needs a known client and its secret; open mode refuses only a wrong secret. */
  private async authenticateClient(clientId: string | undefined, clientSecret: string | undefined): Promise<TppClient | null> {
    const client = clientId === undefined ? null : await this.store.read(TppClient).findOneBy({ clientId });
    // Compared by their hashes, in constant time: the comparison does not leak the secret.
    const secretMatches = () => hashMatches(client!.secretHash, clientSecret!);
    const accepted = this.strict
      ? client !== null && secretMatches()
      : clientId !== undefined && clientId.length <= 64 && (client === null || clientSecret === '' || secretMatches());
    if (!accepted) {
      throw new OAuthError(
        detail('clientUnauthenticated', 'client authentication failed: send client_id and client_secret with HTTP Basic or in the form'),
        'invalid_client',
      );
    }
    return client;
  }
}

/** The client ID and secret, with HTTP Basic or in the form (RFC 6749 §2.3.1); none when neither carries them. */
function clientCredentials(authorization: string | undefined, form: TokenForm): [string, string] | [] {
  const basic = basicCredentials(authorization);
  const inForm = typeof form.client_id === 'string' && form.client_id !== '';
  if (basic && inForm)
    throw new OAuthError(
      detail('tokenRequestMalformed', 'send the client credentials either with HTTP Basic or in the form, not both'),
      'invalid_request',
    );
  return basic ?? (inForm ? [form.client_id as string, typeof form.client_secret === 'string' ? form.client_secret : ''] : []);
}

/** The token request's form fields (RFC 6749 §4.4.2); any may be missing or repeated. */
export interface TokenForm {
  grant_type?: unknown;
  client_id?: unknown;
  client_secret?: unknown;
  scope?: unknown;
}

const grantError = (error: 'invalid_request' | 'unsupported_grant_type', description: string) =>
  new OAuthError(detail('tokenRequestMalformed', description, 'grant_type'), error);

/** `Basic base64(urlencoded id ":" urlencoded secret)` (RFC 6749 §2.3.1); null when malformed. */
function basicCredentials(authorization: string | undefined): [string, string] | null {
  const encoded = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(authorization?.trim() ?? '')?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1) return null;
  try {
    const credentials: [string, string] = [
      decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    ];
    // Neither may hold a control character (RFC 7617 §2); a NUL would also fail PostgreSQL's lookup.
    return credentials.some((part) => /\p{Cc}/u.test(part)) ? null : credentials;
  } catch {
    return null; // a malformed percent-encoding
  }
}
