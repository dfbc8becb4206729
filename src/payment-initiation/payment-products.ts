/**
 * The payment services and the products each can offer (interface: Payment initiation; Berlin
 * Group 1.3.11 for the pain.001 products); a profile says which it does (docs/profiles.md).
 */
export const PAYMENT_PRODUCTS = {
  payments: [
    'sepa-credit-transfers',
    'instant-sepa-credit-transfers',
    'cross-border-credit-transfers',
    'pain.001-sepa-credit-transfers',
    'pain.001-instant-sepa-credit-transfers',
    'pain.001-cross-border-credit-transfers',
  ],
  'bulk-payments': ['sepa-credit-transfers', 'pain.001-sepa-credit-transfers'],
  'periodic-payments': ['sepa-credit-transfers'],
} as const;

export type PaymentServiceName = keyof typeof PAYMENT_PRODUCTS;
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[PaymentServiceName][number];
export const PAYMENT_SERVICES = Object.keys(PAYMENT_PRODUCTS) as PaymentServiceName[];

/** A product whose initiation is a pain.001.001.03 document (docs/formats.md). */
export type Pain001Product = Extract<PaymentProduct, `pain.001-${string}`>;
/** A product whose initiation is JSON. */
export type JsonProduct = Exclude<PaymentProduct, Pain001Product>;

const PAIN_001 = 'pain.001-';

export const isPain001 = (product: PaymentProduct): product is Pain001Product => product.startsWith(PAIN_001);

/**
 * The JSON product whose rules a product follows: a pain.001 product is its JSON twin written in
 * XML, the same payment once read (docs/formats.md, "pain.001").
 */
export const jsonTwinOf = (product: PaymentProduct): JsonProduct =>
  (isPain001(product) ? product.slice(PAIN_001.length) : product) as JsonProduct;

/** Where a payment lives: `/v1/<service>/<product>/<paymentId>`. */
export interface PaymentType {
  service: PaymentServiceName;
  product: PaymentProduct;
}
