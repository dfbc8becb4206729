import { isURL } from 'class-validator';
import { OAuthError, detail } from '../common/error-catalogue';

/** What a client registering itself sends (RFC 7591 §2, docs/security.md "Clients register themselves"), checked. */
export interface ClientMetadata {
  clientName: string;
  redirectUris: string[];
  /** A certificate the sandbox CA issued (PEM or base64 DER): it becomes the client's. */
  certificate: string | null;
}

/** The fields the sandbox reads; RFC 7591 lets a server ignore others, this one refuses them, so that a typo is not lost. */
const FIELDS = ['client_name', 'redirect_uris', 'grant_types', 'token_endpoint_auth_method', 'certificate'];
/** How a registered client authenticates at the token endpoint (RFC 6749 §2.3.1), as the fixtures' clients do. */
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];
const MAX_REDIRECT_URIS = 10;

const invalid = (error: 'invalid_client_metadata' | 'invalid_redirect_uri', path: string, description: string) =>
  new OAuthError(detail('clientMetadataInvalid', description, path), error);

/** The registration request's metadata, or the RFC 7591 §3.2.2 error naming the field. */
export function clientMetadataOf(body: unknown): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('invalid_client_metadata', 'body', 'the body must be a JSON object of client metadata');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((field) => !FIELDS.includes(field));
  if (unknown !== undefined)
    throw invalid('invalid_client_metadata', unknown, `${unknown} is not client metadata the sandbox reads (${FIELDS.join(', ')})`);
  const { client_name: name, redirect_uris: uris, grant_types: grants, token_endpoint_auth_method: method, certificate } = fields;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 140)
    throw invalid('invalid_client_metadata', 'client_name', 'client_name must be the TPP’s name, 1 to 140 characters');
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw invalid('invalid_redirect_uri', 'redirect_uris', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} https URLs`);
  }
  for (const [index, uri] of uris.entries()) {
    if (
      typeof uri !== 'string' ||
      uri.length > 2048 ||
      !isURL(uri, { require_protocol: true, require_tld: false, protocols: ['https'] }) ||
      new URL(uri).username !== '' ||
      new URL(uri).password !== ''
    ) {
      throw invalid(
        'invalid_redirect_uri',
        `redirect_uris[${index}]`,
        'a redirect URI must be an absolute https URL without credentials, at most 2048 characters',
      );
    }
  }
  if (grants !== undefined && (!Array.isArray(grants) || grants.length !== 1 || grants[0] !== 'client_credentials')) {
    throw invalid(
      'invalid_client_metadata',
      'grant_types',
      'grant_types must be ["client_credentials"], the one grant the token endpoint issues',
    );
  }
  if (method !== undefined && !AUTH_METHODS.includes(method as string))
    throw invalid(
      'invalid_client_metadata',
      'token_endpoint_auth_method',
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`,
    );
  if (certificate !== undefined && (typeof certificate !== 'string' || certificate.length > 16_384))
    throw invalid('invalid_client_metadata', 'certificate', 'certificate must be one PEM or base64 DER certificate');
  return { clientName: name, redirectUris: uris as string[], certificate: (certificate as string | undefined) ?? null };
}

/** A certificate named that the sandbox CA did not issue, or that is revoked or another client's. */
export const certificateRefused = () =>
  invalid(
    'invalid_client_metadata',
    'certificate',
    'certificate must be one the sandbox CA issued (POST /sandbox/certificates, npm run certificate), unrevoked and no other client’s',
  );
