import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, refusal } from '../common/error-catalogue';
import { Xs2aController } from '../http/controller.decorator';
import { BankProfile } from '../profile/bank-profile';
import { PAYMENT_SERVICES, PaymentServiceName, PaymentType } from './payment-products';

const routeSegments = (request: Request): string[] => (request.route.path as string).split('/');

/** `authorisations` or `cancellation-authorisations`: the segment after the payment ID in the matched route. */
export const AuthorisationKindSegment = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return routeSegments(context.switchToHttp().getRequest<Request>())[5];
});

/** Route paths under every payment service: an unknown service then matches no route at all (404). */
export const underEveryService = (suffix: string): string[] => PAYMENT_SERVICES.map((service) => `${service}/${suffix}`);

export function productUnknown(product: string): DomainError {
  return refusal('productUnknown', `payment product ${product} unknown`, 'payment-product');
}

/** The service and product of the matched route `/v1/<service>/<product or :product>/...`. */
function paymentTypeOf(request: Request): { service: PaymentServiceName; product: string } {
  const [, , service, product] = routeSegments(request);
  return { service: service as PaymentServiceName, product: product === ':product' ? (request.params.product as string) : product };
}

/** 404 PRODUCT_UNKNOWN for a product the profile does not offer under the service (docs/profiles.md), after the request's own checks. */
@Injectable()
class OfferedProduct implements CanActivate {
  constructor(private readonly profile: BankProfile) {}

  canActivate(context: ExecutionContext): boolean {
    const { service, product } = paymentTypeOf(context.switchToHttp().getRequest<Request>());
    if (!this.profile.offers(service, product)) throw productUnknown(product);
    return true;
  }
}

/** A controller of payment routes under /v1: the XS2A checks, then the product offered. */
export const PaymentController = (): ClassDecorator => applyDecorators(Xs2aController('', 'PSP_PI'), UseGuards(OfferedProduct));

/** The service and product of a payment request, which OfferedProduct has let through. */
export const PaymentRoute = createParamDecorator(
  (_: unknown, context: ExecutionContext): PaymentType => paymentTypeOf(context.switchToHttp().getRequest<Request>()) as PaymentType,
);
