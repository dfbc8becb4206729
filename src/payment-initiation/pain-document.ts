import type { OpenAPIObject } from '@nestjs/swagger';
import type { BankProfile } from '../profile/bank-profile';
import { PAIN_001_EXAMPLES } from './dto/payment-examples';
import { pain002Of } from './pain002';
import { isPain001, PAYMENT_SERVICES } from './payment-products';

type Operation = { responses: Record<string, { content?: Record<string, object> }> };

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
 * the status a pain.002, the payment the pain.001 as sent.
 */
export function documentPain001(document: OpenAPIObject, profile: BankProfile): void {
  for (const service of PAYMENT_SERVICES) {
    if (!(profile.settings.paymentProducts[service] ?? []).some(isPain001)) continue;
    const xml = (path: string, description: string, example: string) => {
      const ok = (document.paths[`/v1/${service}/{product}/{paymentId}${path}`]?.get as Operation | undefined)?.responses['200'];
      if (ok?.content) ok.content['application/xml'] = { schema: { type: 'string', description }, example };
    };
    xml('', 'a pain.001 product: the pain.001.001.03 as the TPP sent it', PAIN_001_EXAMPLES.payment);
    xml('/status', "a pain.001 product: its pain.002.001.03, with the JSON answer's status", PAIN_002_EXAMPLE);
  }
}
