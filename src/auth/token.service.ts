import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, Repository } from 'typeorm';
import { AnswerMemo } from '../common/answer-memo';
import { DomainError, OAuthError } from '../common/error-catalogue';
import { Environment } from '../config/environment';
import { findByPrimaryKey, insertRow } from '../database/prebuilt-statements';
import { GroupCommit } from '../database/group-commit';
import { AccessToken, TppClient } from './client.entity';
import type { Owner } from './owner';

/** The bank's token lifetime, in seconds. */
export const TOKEN_LIFETIME = 599;

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Issues client-credentials tokens and tells, per request, whose data the request may see. */
@Injectable()
export class TokenService {
  private readonly strict: boolean;
  /** An issued token's row never changes (expired ones are only ever deleted), so each is read once, not on every request. */
  private readonly issued = new AnswerMemo<AccessToken>();

  constructor(
    @InjectRepository(TppClient) private readonly clients: Repository<TppClient>,
    @InjectRepository(AccessToken) private readonly tokens: Repository<AccessToken>,
    config: ConfigService<Environment, true>,
    private readonly writes: GroupCommit,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
  }

  /** OAuth2 client credentials grant (RFC 6749 §4.4) with HTTP Basic client authentication. */
  async issue(authorization: string | undefined, grantType: unknown): Promise<{ token: string; expiresIn: number }> {
    const client = await this.authenticateClient(authorization);
    if (grantType === undefined || grantType === '') throw grantError('invalid_request', 'grant_type is required');
    if (grantType !== 'client_credentials') throw grantError('unsupported_grant_type', 'grant_type must be client_credentials');
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.writes.run(async (manager) => {
      await insertRow(manager, AccessToken, { tokenHash: sha256(token), clientId: client.clientId, expiresAt: new Date(now + TOKEN_LIFETIME * 1000).toISOString() });
      // Housekeeping: expired tokens are of no use to anyone.
      await manager.delete(AccessToken, { expiresAt: LessThanOrEqual(new Date(now).toISOString()) });
    });
    return { token, expiresIn: TOKEN_LIFETIME };
  }

  /**
   * The owner a request acts for. Open mode: nobody in particular (everything is visible), and
   * the bearer token is only checked for presence where `bearerRequired`. Strict mode: the
   * client of an issued, unexpired token.
   */
  async ownerOf(authorization: string | undefined, bearerRequired: boolean): Promise<Owner> {
    const token = /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
    if (!token && (this.strict || bearerRequired)) {
      throw new DomainError({ messageId: 'XS2A007E', description: 'an Authorization header "Bearer <token>" is required' });
    }
    if (!this.strict) return undefined;
    const tokenHash = sha256(token!);
    const issued = this.issued.recall(AccessToken, tokenHash) ?? (await this.readIssued(tokenHash));
    if (issued.expiresAt <= new Date().toISOString()) {
      throw new DomainError({ messageId: 'XS2A025E', description: `the bearer token expired at ${issued.expiresAt}` });
    }
    return issued.clientId;
  }

  private async readIssued(tokenHash: string): Promise<AccessToken> {
    const issued = await findByPrimaryKey(this.tokens, tokenHash);
    if (!issued) throw new DomainError({ messageId: 'XS2A024E', description: 'the bearer token was not issued by this sandbox' });
    return this.issued.keep(AccessToken, tokenHash, issued);
  }

  private async authenticateClient(authorization: string | undefined): Promise<TppClient> {
    const [clientId, clientSecret] = basicCredentials(authorization) ?? [];
    const client = clientId === undefined ? null : await this.clients.findOneBy({ clientId });
    // Hashes have equal lengths, as timingSafeEqual needs; the comparison does not leak the secret.
    if (!client || !timingSafeEqual(Buffer.from(sha256(client.clientSecret)), Buffer.from(sha256(clientSecret!)))) {
      throw new OAuthError({ messageId: 'XS2A026E', description: 'client authentication failed: send the client credentials with HTTP Basic' }, 'invalid_client');
    }
    return client;
  }
}

const grantError = (error: 'invalid_request' | 'unsupported_grant_type', description: string) =>
  new OAuthError({ messageId: 'XS2A027E', path: 'grant_type', description }, error);

/** `Basic base64(urlencoded id ":" urlencoded secret)` (RFC 6749 §2.3.1); null when malformed. */
function basicCredentials(authorization: string | undefined): [string, string] | null {
  const encoded = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(authorization?.trim() ?? '')?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1) return null;
  try {
    return [decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '))];
  } catch {
    return null; // a malformed percent-encoding
  }
}
