import { EXAMPLE } from './document-examples';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsCurrency, IsIban } from './validators';

/** An account reference in a request: the IBAN, optionally with the account's currency. */
export class AccountReferenceDto {
  @ApiProperty({ example: EXAMPLE.iban })
  @IsIban()
  iban: string;

  @ApiPropertyOptional({ example: 'EUR' })
  @IsOptional()
  @IsCurrency()
  currency?: string;
}
