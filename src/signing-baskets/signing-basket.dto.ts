import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Authorisation } from '../authorisation/authorisation.entity';
import { nextStepLinks, psuMessageOf, ScaLinks } from '../authorisation/authorisation-response.dto';
import { href, Href } from '../common/links';
import { fixturePaymentId } from '../payment-initiation/fixture-payments';
import type { SigningBasket } from './signing-basket.entity';
import type { BasketStatus } from './signing-basket.machine';

const STATUSES = ['RCVD', 'ACTC', 'RJCT', 'CANC'];
const BASKET = '/v1/signing-baskets/1234-basket-567';

/** Berlin Group's signing basket request: at least one entry in either list. */
export class CreateSigningBasketDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    // The fixture payment, which waits for nothing: the example is answered with what to do instead (docs/signing-baskets.md).
    example: [fixturePaymentId('payments')],
    description: 'payments of this client waiting for SCA (RCVD, RCVC)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(36, { each: true })
  paymentIds?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    example: [],
    description: 'consents of this client waiting for SCA (received): account information or confirmation of funds',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(36, { each: true })
  consentIds?: string[];
}

export class BasketLinks extends OmitType(ScaLinks, ['scaRedirect']) {
  @ApiPropertyOptional({
    type: Href,
    description: 'redirect: the SCA page of the basket',
    example: { href: 'http://localhost:3000/sca/signing-baskets?basket_id=1234-basket-567' },
  })
  scaRedirect?: Href;

  @ApiProperty({ type: Href, example: { href: BASKET } })
  self: Href;

  @ApiProperty({ type: Href, example: { href: `${BASKET}/status` } })
  status: Href;
}

export class BasketCreatedResponse {
  @ApiProperty({ enum: ['RCVD'], example: 'RCVD' })
  transactionStatus: BasketStatus;

  @ApiProperty({ example: '1234-basket-567' })
  basketId: string;

  @ApiProperty({ type: BasketLinks })
  _links: BasketLinks;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'decoupled: what the TPP shows the holder' })
  psuMessage: string | null;
}

/** Berlin Group lists a basket's payments and consents with at least one item each: an empty list is null (left out in its answers). */
export class BasketResponse {
  @ApiProperty({ type: [String], nullable: true, minItems: 1, example: ['3d9a81b3-a47d-4130-8765-a9c0ff861b99'] })
  payments: string[] | null;

  @ApiProperty({ type: [String], nullable: true, minItems: 1, example: null })
  consents: string[] | null;

  @ApiProperty({ enum: STATUSES, example: 'ACTC' })
  transactionStatus: BasketStatus;

  @ApiProperty({ type: BasketLinks })
  _links: Pick<BasketLinks, 'self' | 'status'>;
}

export class BasketStatusResponse {
  @ApiProperty({ enum: STATUSES, example: 'ACTC' })
  transactionStatus: BasketStatus;
}

export const basketPath = (basketId: string) => `/v1/signing-baskets/${basketId}`;

const ownLinks = (basketId: string) => ({ self: href(basketPath(basketId)), status: href(`${basketPath(basketId)}/status`) });

/** The answer to a creation: the redirect page, or the next step of embedded or decoupled SCA (docs/sca-approaches.md). */
export function toBasketCreatedResponse(basket: SigningBasket, authorisation: Authorisation, scaRedirect: Href): BasketCreatedResponse {
  const redirect = authorisation.approach === 'REDIRECT';
  return {
    transactionStatus: basket.status,
    basketId: basket.id,
    _links: redirect
      ? { scaRedirect, ...ownLinks(basket.id) }
      : { ...nextStepLinks(authorisation, `${basketPath(basket.id)}/authorisations/${authorisation.id}`), ...ownLinks(basket.id) },
    psuMessage: (!redirect && psuMessageOf(authorisation).psuMessage) || null,
  };
}

export const toBasketResponse = ({ id, paymentIds, consentIds, status }: SigningBasket): BasketResponse => ({
  payments: paymentIds.length ? paymentIds : null,
  consents: consentIds.length ? consentIds : null,
  transactionStatus: status,
  _links: ownLinks(id),
});
