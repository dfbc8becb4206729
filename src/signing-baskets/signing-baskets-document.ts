import type { OpenAPIObject } from '@nestjs/swagger';
import type { BankProfile } from '../profile/bank-profile';
import { PAYMENT_SERVICES } from '../payment-initiation/payment-products';
import { documentFixtureBasket } from './fixture-basket';

type Schema = { enum?: string[]; properties?: Record<string, unknown> };
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = { parameters?: Parameter[] };

const EXPLICIT: Parameter = {
  name: 'TPP-Explicit-Authorisation-Preferred',
  in: 'header',
  required: false,
  schema: { enum: ['true', 'false'] },
  description:
    'true: no implicit authorisation; the answer links startAuthorisation, and the resource may join a signing basket (docs/signing-baskets.md)',
};

/**
 * The served document says what signing baskets change where the bank offers them
 * (docs/signing-baskets.md): a payment or consent may be created for an explicit start, and the
 * examples name the fixture basket. Elsewhere
 * the links are written without startAuthorisation.
 */
export function documentSigningBaskets(document: OpenAPIObject, profile: BankProfile): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  if (profile.provides('signingBaskets')) {
    for (const [path, operations] of Object.entries(document.paths)) {
      const creates =
        path === '/v1/consents' ||
        path === '/v2/consents/confirmation-of-funds' ||
        PAYMENT_SERVICES.some((service) => path.startsWith(`/v1/${service}/`) && path.split('/').length === 4);
      const post = (operations as { post?: Operation }).post;
      if (creates && post) post.parameters = [...(post.parameters ?? []), EXPLICIT];
    }
    documentFixtureBasket(document);
    return;
  }
  for (const links of [schemas.PaymentLinks, schemas.ConsentLinks]) delete links?.properties?.startAuthorisation;
}
