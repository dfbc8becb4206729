import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { EXAMPLE_CARD_NUMBER } from '../fixture-consent';
import { EXAMPLE } from '../../common/document-examples';
import { IsDateOnly, NestedObject } from '../../common/validators';

/** Berlin Group's consent for the confirmation of funds (PIIS consent 2.0): one account, and the card a PIISP issued for it. */
export class CreateFundsConsentDto {
  @ApiProperty({ type: AccountReferenceDto, description: 'the account whose funds the TPP may ask about' })
  @IsDefined()
  @NestedObject(() => AccountReferenceDto)
  account: AccountReferenceDto;

  @ApiPropertyOptional({
    example: EXAMPLE_CARD_NUMBER,
    maxLength: 35,
    description: 'the card the PIISP issued; each check may name it again',
  })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  cardNumber?: string;

  @ApiPropertyOptional({
    example: EXAMPLE.date(4 * 365),
    description: 'the consent expires the day after (and with no date, never): not before today',
  })
  @IsOptional()
  @IsDateOnly()
  cardExpiryDate?: string;

  @ApiPropertyOptional({ example: 'MyMerchant Loyalty Card', maxLength: 140, description: 'what the card is, shown to the holder' })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  cardInformation?: string;

  @ApiPropertyOptional({ example: 'Your contract 1234 with MyMerchant', maxLength: 140, description: 'shown to the holder' })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  registrationInformation?: string;
}
