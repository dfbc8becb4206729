import type { OpenAPIObject } from '@nestjs/swagger';
import type { BankProfile } from '../profile/bank-profile';
import { PAIN_001_EXAMPLES } from './dto/payment-examples';
import { pain002Of } from './pain002';
import { isPain001, PAYMENT_SERVICES } from './payment-products';

type Operation = {
  responses: Record<string, { content?: Record<string, object> }>;
  requestBody?: { content: Record<string, { examples?: Record<string, { value: string }>; example?: string }> };
};

/** The served example of a pain.002: the sandbox's own writer, for an executed payment of one transaction. */
const PAIN_002_EXAMPLE = pain002Of(
  { id: '3d9a81b3-a47d-4130-8765-a9c0ff861b99', status: 'ACSP', reasonCode: null },
  {
    messageId: 'TRY-IT-OUT',
    createdAt: '2026-03-15T09:00:00',
    paymentInformationId: 'TRY-IT-OUT-PMTINF',
    transactions: 1,
    controlSum: '12.50',
    endToEndIds: ['TRY-IT-OUT-1'],
  },
  { name: 'PSD2 Sandbox Bank', bic: 'TESTAT99' },
  new Date('2026-03-15T09:00:05Z'),
);

/**
 * Where a service offers a pain.001 product, its payment's reads answer XML too (docs/formats.md):
 * the status a pain.002, the payment the pain.001 as sent; a bulk's initiation has an example of its own.
 */
export function documentPain001(document: OpenAPIObject, profile: BankProfile): void {
  for (const service of PAYMENT_SERVICES) {
    const products = (profile.settings.paymentProducts[service] ?? []).filter(isPain001);
    if (products.length === 0) continue;
    // One route takes every pain.001 product; a bulk's example holds two transactions. Swagger UI
    // prefills an XML body from the media type's `example` (app.factory.ts, wholeXmlExamples).
    for (const product of products) {
      const xml = (document.paths[`/v1/${service}/${product}`]?.post as Operation | undefined)?.requestBody?.content['application/xml'];
      if (xml) {
        delete xml.examples;
        xml.example = service === 'bulk-payments' ? PAIN_001_EXAMPLES.bulk : PAIN_001_EXAMPLES.payment;
      }
    }
    const xml = (path: string, description: string, example: string) => {
      const ok = (document.paths[`/v1/${service}/{product}/{paymentId}${path}`]?.get as Operation | undefined)?.responses['200'];
      if (ok?.content) ok.content['application/xml'] = { schema: { type: 'string', description }, example };
    };
    xml('', 'a pain.001 product: the pain.001.001.03 as the TPP sent it', PAIN_001_EXAMPLES.payment);
    xml('/status', "a pain.001 product: its pain.002.001.03, with the JSON answer's status", PAIN_002_EXAMPLE);
  }
}
