import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = { type?: string; items?: unknown; properties?: Record<string, Schema>; [key: string]: unknown };

/**
 * The served document says what the profile does with card accounts (docs/card-accounts.md):
 * where the bank shows them, a consent's account may be a card named by its masked PAN; where
 * not, the scenario fields that create cards are left out (the validation pipe strips them unread).
 */
export function documentCardAccounts(document: OpenAPIObject, shown: boolean): void {
  const schemas = document.components!.schemas as Record<string, Schema>;
  if (!shown) {
    // With SANDBOX_CONTROL=false there are no scenarios to document.
    delete schemas.CreateScenarioDto?.properties?.cardAccounts;
    delete schemas.ScenarioResponse?.properties?.cardAccounts;
    for (const name of ['ScenarioCardAccountDto', 'ScenarioCardBalancesDto', 'ScenarioCardTransactionDto', 'ScenarioCardAccountResponse'])
      delete schemas[name];
    return;
  }
  const { iban, currency } = schemas.AccountReferenceDto.properties!;
  schemas.ConsentAccountReferenceDto = {
    type: 'object',
    description: 'an account by its IBAN, or a card account by its maskedPan: one of the two',
    properties: { iban, maskedPan: { type: 'string', pattern: '^[0-9]{6}x{2,19}[0-9]{4}$', example: '492950xxxxxx4711' }, currency },
    oneOf: [{ required: ['iban'] }, { required: ['maskedPan'] }],
  };
  const access = schemas.ConsentAccessDto.properties!;
  for (const list of [access.accounts, access.balances, access.transactions])
    list.items = { $ref: '#/components/schemas/ConsentAccountReferenceDto' };
}
