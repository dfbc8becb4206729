import { applyDecorators } from '@nestjs/common';
import type { ValidationOptions } from 'class-validator';

/**
 * The services that offer fields of Berlin Group's models in the core's requests (a consent's card
 * accounts, its additional information): each field says which with OfferedBy, where it is written
 * (docs/development.md, "A service plugs in"). A service's `requestGroup` is its name here.
 */
export const FIELD_SERVICES = { cardAccounts: 'cardAccounts', trustedBeneficiaries: 'trustedBeneficiaries' } as const;

/** The options a rule of `service`'s takes: read only in its group, which the profile's banks offering it set (createValidationPipe). */
export type OfferedGroup = ValidationOptions & { groups: [string]; always: false };

export const whereOffered = (service: string): OfferedGroup => ({ groups: [service], always: false });

/** A DTO class, as the served document names its schema. */
type Dto = { readonly name: string };

/** Each class's fields that exist only where their service is offered, by service. */
const OFFERED = new Map<Dto, Map<string, string>>();

/**
 * Rules of a field, listed as they would be written on it, that apply only where the bank offers
 * `service`: elsewhere the field is read as if they were not written.
 */
export const WhereOffered = (service: string, rules: (where: OfferedGroup) => PropertyDecorator[]): PropertyDecorator =>
  // TypeScript applies a field's decorators from the last written; applyDecorators in its order.
  applyDecorators(...rules(whereOffered(service)).reverse()) as PropertyDecorator;

/**
 * A field that only a bank offering `service` reads: its rules apply in the service's group, so
 * that elsewhere the validation pipe strips it unread, as any unknown field; and the served
 * document leaves it out there (served-document.ts).
 */
export function OfferedBy(service: string, rules: (where: OfferedGroup) => PropertyDecorator[]): PropertyDecorator {
  return (target, property) => {
    const dto = target.constructor as Dto;
    const fields = OFFERED.get(dto) ?? new Map<string, string>();
    OFFERED.set(dto, fields.set(String(property), service));
    WhereOffered(service, rules)(target, property);
  };
}

/** Each class's fields that exist only where their service is offered: [class, field, service]. */
export function offeredFields(): [Dto, string, string][] {
  return [...OFFERED].flatMap(([dto, fields]) => [...fields].map(([field, service]): [Dto, string, string] => [dto, field, service]));
}
