import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The hex SHA-256 the sandbox keeps of a token (the database never holds a usable one) and compares secrets by. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A fresh bearer token, client secret or registration access token: 256 random bits, base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** The token of an `Authorization: Bearer <token>` header; undefined where there is none. */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];

/** Whether `value` hashes to `hash`, compared in constant time: SHA-256 hex strings have equal lengths, as timingSafeEqual needs. */
export function hashMatches(hash: string | null | undefined, value: string): boolean {
  const [expected, given] = [Buffer.from(hash ?? ''), Buffer.from(sha256(value))];
  return expected.length === given.length && timingSafeEqual(expected, given);
}
