import type { OpenAPIObject } from '@nestjs/swagger';
import { AccountReferenceDto } from '../common/account-reference.dto';
import { MASKED_PAN } from '../common/validators';
import { ConsentAccessDto, ConsentAccountReferenceDto } from '../consent/dto/create-consent.dto';

type Schema = { type?: string; items?: unknown; properties?: Record<string, Schema>; [key: string]: unknown };

/**
 * Where the bank shows card accounts, the served document says that a consent's account may be a
 * card named by its masked PAN (docs/card-accounts.md): one of the two. Where not, the fields that
 * offer cards are left out as every unoffered field is (OfferedBy).
 */
export function documentCardAccounts(document: OpenAPIObject, shown: boolean): void {
  if (!shown) return;
  const schemas = document.components!.schemas as Record<string, Schema>;
  const { iban, currency } = schemas[AccountReferenceDto.name].properties!;
  schemas[ConsentAccountReferenceDto.name] = {
    type: 'object',
    description: 'an account by its IBAN, or a card account by its maskedPan: one of the two',
    properties: { iban, maskedPan: { type: 'string', pattern: MASKED_PAN.source, example: '492950xxxxxx4711' }, currency },
    oneOf: [{ required: ['iban'] }, { required: ['maskedPan'] }],
  };
  const access = schemas[ConsentAccessDto.name].properties!;
  for (const list of [access.accounts, access.balances, access.transactions])
    list.items = { $ref: `#/components/schemas/${ConsentAccountReferenceDto.name}` };
}
