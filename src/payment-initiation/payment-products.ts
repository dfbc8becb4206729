/** The payment services and the products each can offer (interface: Payment initiation); a profile says which it does (docs/profiles.md). */
export const PAYMENT_PRODUCTS = {
  payments: ['sepa-credit-transfers', 'instant-sepa-credit-transfers', 'cross-border-credit-transfers'],
  'bulk-payments': ['sepa-credit-transfers'],
  'periodic-payments': ['sepa-credit-transfers'],
} as const;

export type PaymentServiceName = keyof typeof PAYMENT_PRODUCTS;
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[PaymentServiceName][number];
export const PAYMENT_SERVICES = Object.keys(PAYMENT_PRODUCTS) as PaymentServiceName[];

/** Where a payment lives: `/v1/<service>/<product>/<paymentId>`. */
export interface PaymentType {
  service: PaymentServiceName;
  product: PaymentProduct;
}
