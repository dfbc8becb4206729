import type { OpenAPIObject } from '@nestjs/swagger';
import type { BankProfile } from '../profile/bank-profile';
import { documentFixtureFundsConsent } from './fixture-consent';

type Operation = { parameters?: { name: string }[]; responses: Record<string, { description?: string }> };

/**
 * Where the bank manages its PIIS consents outside the API (docs/funds-confirmation.md), the served
 * document's check carries no Consent-ID and meets none of a consent's refusals; where a TPP asks
 * them through the API, the examples name the fixture consent.
 */
export function documentFundsConfirmation(document: OpenAPIObject, profile: BankProfile): void {
  if (profile.settings.fundsConfirmation?.consent !== 'outside') return documentFixtureFundsConsent(document);
  const check = document.paths['/v1/funds-confirmations'].post as unknown as Operation;
  check.parameters = check.parameters?.filter(({ name }) => name !== 'Consent-ID');
  delete check.responses['403'];
  check.responses['400'].description = "FORMAT_ERROR; PARAMETER_NOT_CONSISTENT: not the account's currency";
  check.responses['401'].description = 'TOKEN_INVALID';
  check.responses['404'].description = "RESOURCE_UNKNOWN: no such account, or (AUTH_MODE=strict) an account of another client's scenario";
}
