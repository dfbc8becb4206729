import type { OpenAPIObject } from '@nestjs/swagger';
import type { BankProfile } from '../profile/bank-profile';
import type { DeclaredRoute } from '../http/route-access';

type Operation = {
  'x-psd2-role'?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: object }[];
  responses?: Record<string, { description?: string }>;
};

const refusals = (revoked: string) =>
  `where the profile asks for certificates (docs/tpp-identity.md): SIGNATURE_MISSING, SIGNATURE_INVALID, CERTIFICATE_MISSING, CERTIFICATE_INVALID, CERTIFICATE_EXPIRED, ${revoked}, ROLE_INVALID`;

/**
 * The served document says what the profile's tpp keys ask of every /v1 (and /v2) request: the signature
 * headers (required, or checked when sent), the QWAC header a proxy forwards, the 401 codes of
 * their refusals, and the PSD2 role each operation's certificate must grant (`x-psd2-role`, from
 * the route's declaration). A profile that asks for nothing gets the document unchanged.
 */
export function documentIdentity(document: OpenAPIObject, profile: BankProfile, routes: DeclaredRoute[]): void {
  const { oauth, signatures, qwac, qwacHeader, revoked } = profile.tpp;
  if (oauth === 'optional') documentOptionalToken(document);
  if (signatures === 'off' && qwac === 'off') return;
  const required = signatures === 'required';
  const headers = [
    ...(signatures === 'off'
      ? []
      : [
          { name: 'Digest', description: 'SHA-256=<base64> or SHA-512=<base64> of the exact body (of nothing, for a request without one)' },
          {
            name: 'Signature',
            description:
              'keyId="SN=<serial hex>,CA=<issuer>",algorithm="rsa-sha256",headers="digest x-request-id [psu-id] [psu-corporate-id] [tpp-redirect-uri] …",signature="<base64>"',
          },
          {
            name: 'TPP-Signature-Certificate',
            description: 'the QSealC that signs, base64 DER (PEM accepted), with the PSD2 role of the service',
          },
        ].map((header) => ({
          ...header,
          in: 'header',
          required,
          schema: { type: 'string' },
          description: `${required ? '' : 'checked when sent: '}${header.description}`,
        }))),
    ...(qwac === 'header'
      ? [
          {
            name: qwacHeader,
            in: 'header',
            required: true,
            schema: { type: 'string' },
            description:
              'the QWAC as a TLS-terminating proxy forwards it: URL-encoded PEM; believed only from a proxy the bank trusts (TRUST_PROXY), from anyone else 401 CERTIFICATE_INVALID',
          },
        ]
      : []),
  ];
  const roles = new Map(routes.map(({ method, path, access }) => [`${method.toLowerCase()} ${path}`, access?.role]));
  const REFUSALS = refusals(revoked);
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!/^\/v[12]\//.test(path)) continue;
    for (const [method, operation] of Object.entries(operations) as [string, Operation][]) {
      operation.parameters = [...(operation.parameters ?? []), ...headers];
      const role = roles.get(`${method} ${path}`);
      if (role) operation['x-psd2-role'] = role;
      const unauthorised = operation.responses?.['401'];
      if (unauthorised && !unauthorised.description?.includes(REFUSALS))
        unauthorised.description = `${unauthorised.description ?? ''}; ${REFUSALS}`;
    }
  }
}

const WITHOUT_TOKEN =
  'without a bearer token (tpp.oauth: optional), AUTH_MODE=strict: CERTIFICATE_MISSING (no certificate), CERTIFICATE_INVALID (one the sandbox issued to no client)';

/** tpp.oauth: optional: every /v1 (and /v2) operation may come without a token, as the Berlin Group yaml's `security` allows (the empty requirement). */
function documentOptionalToken(document: OpenAPIObject): void {
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!/^\/v[12]\//.test(path)) continue;
    for (const operation of Object.values(operations) as Operation[]) {
      operation.security = [...(operation.security ?? []).filter((requirement) => Object.keys(requirement).length > 0), {}];
      const unauthorised = operation.responses?.['401'];
      if (unauthorised) unauthorised.description = `${unauthorised.description ?? ''}; ${WITHOUT_TOKEN}`;
    }
  }
}
