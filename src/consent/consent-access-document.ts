import { EXAMPLE } from '../common/document-examples';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { BankProfile } from '../profile/bank-profile';
import { ConsentAccessDto, CreateConsentDto } from './dto/create-consent.dto';

type Schema = { required?: string[]; properties?: Record<string, { minItems?: number; example?: unknown }> };

/**
 * Berlin Group's access rules in the served document (consents.access: berlin-group; docs/behaviour.md,
 * "Consent access"): combinedServiceIndicator is required, and a list names at least one account.
 */
export function documentConsentAccess(document: OpenAPIObject, profile: BankProfile): void {
  if (profile.consentAccess !== 'berlin-group') return;
  const schemas = document.components!.schemas! as Record<string, Schema>;
  const request = schemas[CreateConsentDto.name];
  request.required = [...(request.required ?? []), 'combinedServiceIndicator'];
  for (const list of ['accounts', 'balances', 'transactions'])
    Object.assign(schemas[ConsentAccessDto.name].properties![list], { minItems: 1, example: [{ iban: EXAMPLE.iban }] });
}
