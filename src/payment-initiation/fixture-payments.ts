import type { OpenAPIObject } from '@nestjs/swagger';
import { fixtureAuthorisationId } from '../common/resource-id';
import { fixtureAuthorisation } from '../profile/fixture-authorisations';
import { Authorisation } from '../authorisation/authorisation.entity';
import { exampleParametersWhere, exampleValues, filledExamples } from '../common/document-examples';
import { fixtureResourceId } from '../common/resource-id';
import type { BankProfile } from '../profile/bank-profile';
import { PAYMENT_EXAMPLES } from './dto/payment-examples';
import { Payment } from './payment.entity';
import { isPain001, PAYMENT_SERVICES, PaymentProduct, PaymentServiceName } from './payment-products';
import { PaymentBody, termsOf } from './payment-terms';

/** The fixture payment of a payment service: the same ID in every profile, on every start. */
export const fixturePaymentId = (service: PaymentServiceName): string => fixtureResourceId(`payment ${service}`);

/** When the fixture payments were asked for and executed: long past, whatever the sandbox's today. */
const REQUESTED = '2019-03-01';
const EXECUTED = '2019-03-04';

const PERIODIC = { startDate: '2019-01-01', endDate: '2019-03-31', frequency: 'Monthly', dayOfExecution: '1' };

/** The body a TPP sent for it: the served document's example of its product, dated in the past. */
function bodyOf(service: PaymentServiceName, product: PaymentProduct): PaymentBody {
  if (service === 'bulk-payments') return { ...PAYMENT_EXAMPLES.bulk, requestedExecutionDate: EXECUTED } as PaymentBody;
  if (service === 'periodic-payments') return { ...PAYMENT_EXAMPLES.periodic, ...PERIODIC } as PaymentBody;
  if (product === 'instant-sepa-credit-transfers') return PAYMENT_EXAMPLES.instant as PaymentBody;
  const transfer = product === 'cross-border-credit-transfers' ? PAYMENT_EXAMPLES.crossBorder : PAYMENT_EXAMPLES.sepa;
  return { ...transfer, requestedExecutionDate: EXECUTED } as PaymentBody;
}

/**
 * One fixture payment for each payment service the bank offers, of its first product
 * (docs/profiles.md, "Fixtures"): from the account the served document's examples name to
 * another, executed (ACSP) long ago, its SCA finalised and, but for an instant one, a cancellation
 * the holder refused. Every world sees them and none can change them, so that each payment
 * operation's example names a payment in a fresh sandbox.
 */
export function fixturePayments(profile: BankProfile): { payments: Payment[]; authorisations: Authorisation[] } {
  const values = exampleValues(profile);
  if (values.iban === '') return { payments: [], authorisations: [] };
  const offered = PAYMENT_SERVICES.flatMap((service) => {
    // A JSON product's: the fixture holds no pain.001 document (docs/formats.md).
    const product = profile.settings.paymentProducts[service]?.find((offered) => !isPain001(offered));
    return product === undefined ? [] : [{ service, product }];
  });
  const payments = offered.map(({ service, product }): Payment => {
    const body = filledExamples(bodyOf(service, product), values, REQUESTED);
    const periodic = service === 'periodic-payments';
    return {
      id: fixturePaymentId(service),
      service,
      product,
      status: 'ACSP',
      ...termsOf(body),
      nextExecutionDate: null,
      instalmentsRun: periodic ? 3 : 0,
      lastDueDate: periodic ? '2019-03-01' : null,
      body,
      ownerId: null,
      reasonCode: null,
      vopResults: null,
      document: null,
    };
  });
  const authorisations = payments.flatMap(({ id, product }) => [
    fixtureAuthorisation(profile, 'payment', id, { status: 'finalised', psuId: values.psuId, createdAt: `${REQUESTED}T09:00:00.000Z` }),
    ...(product === 'instant-sepa-credit-transfers'
      ? []
      : [
          fixtureAuthorisation(profile, 'cancellation', id, {
            status: 'failed',
            psuId: values.psuId,
            createdAt: `${REQUESTED}T10:00:00.000Z`,
          }),
        ]),
  ]);
  return { payments, authorisations };
}

/**
 * The served document's examples of a payment path's IDs name the fixture payment of its service
 * and its authorisation of the path's kind; the control API's, the single payment's (a periodic
 * one's instalments: the periodic payment's). Operations of a service the bank does not offer are
 * already left out.
 */
export function documentFixturePayments(document: OpenAPIObject): void {
  const examples = (service: PaymentServiceName, kind: 'payment' | 'cancellation') => ({
    paymentId: fixturePaymentId(service),
    authorisationId: fixtureAuthorisationId(kind, fixturePaymentId(service)),
  });
  for (const service of PAYMENT_SERVICES) {
    const under = (path: string) => path.startsWith(`/v1/${service}/`);
    exampleParametersWhere(document, under, examples(service, 'payment'));
    exampleParametersWhere(
      document,
      (path) => under(path) && path.includes('/cancellation-authorisations/'),
      examples(service, 'cancellation'),
    );
  }
  exampleParametersWhere(document, (path) => path.startsWith('/sandbox/') && path !== INSTALMENTS, examples('payments', 'payment'));
  exampleParametersWhere(document, (path) => path === INSTALMENTS, examples('periodic-payments', 'payment'));
}

export const INSTALMENTS = '/sandbox/payments/{paymentId}/instalments';
