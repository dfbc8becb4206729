import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { EXAMPLE_CARD_NUMBER } from '../fixture-consent';
import { NestedObject } from '../../common/validators';
import { AmountDto } from '../../payment-initiation/dto/payment-parts.dto';

/** Berlin Group's confirmation of funds request (1.3.11 yaml, confirmationOfFunds). */
export class FundsConfirmationDto {
  @ApiPropertyOptional({
    example: EXAMPLE_CARD_NUMBER,
    maxLength: 35,
    description: "the card the PIISP issued; must be the consent's card where the consent names one",
  })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  cardNumber?: string;

  @ApiProperty({ type: AccountReferenceDto, description: "the holder's account" })
  @IsDefined()
  @NestedObject(() => AccountReferenceDto)
  account: AccountReferenceDto;

  @ApiPropertyOptional({ example: 'Corner Shop Vienna', maxLength: 70, description: 'the merchant, for the holder: not checked' })
  @IsOptional()
  @IsString()
  @MaxLength(70)
  payee?: string;

  @ApiProperty({ type: AmountDto, description: "in the account's currency" })
  @IsDefined()
  @NestedObject(() => AmountDto)
  instructedAmount: AmountDto;
}

export class FundsConfirmationResponse {
  @ApiProperty({ example: true, description: "whether the account's interimAvailable balance covers the amount now" })
  fundsAvailable: boolean;
}
