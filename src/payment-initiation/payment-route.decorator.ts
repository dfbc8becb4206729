import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../common/error-catalogue';
import { isOffered, PAYMENT_SERVICES, PaymentServiceName, PaymentType } from './payment-products';

const routeSegments = (request: Request): string[] => (request.route.path as string).split('/');

/** `authorisations` or `cancellation-authorisations`: the segment after the payment ID in the matched route. */
export const AuthorisationKindSegment = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return routeSegments(context.switchToHttp().getRequest<Request>())[5];
});

/** Route paths under every payment service: an unknown service then matches no route at all (404). */
export const underEveryService = (suffix: string): string[] => PAYMENT_SERVICES.map((service) => `${service}/${suffix}`);

export function productUnknown(product: string): DomainError {
  return new DomainError({ messageId: 'XS2A014E', path: 'payment-product', description: `payment product ${product} unknown` });
}

/** The service (from the matched route) and product (from the path) of a payment request; 404 PRODUCT_UNKNOWN if not offered. */
export const PaymentRoute = createParamDecorator((_: unknown, context: ExecutionContext): PaymentType => {
  const request = context.switchToHttp().getRequest<Request>();
  // The matched route is `/v1/<service>/:product/...`, one of those underEveryService() made.
  const service = routeSegments(request)[2] as PaymentServiceName;
  const product = request.params.product as string;
  if (!isOffered(service, product)) throw productUnknown(product);
  return { service, product };
});
