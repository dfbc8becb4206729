import { Injectable } from '@nestjs/common';
import { isBelow } from '../common/amount';
import { FormatError, refusal } from '../common/error-catalogue';
import { AccountStore } from '../bank/account-store';
import { fundsAccountOf } from '../consent/consent.entity';
import { ConsentService } from '../consent/consent.service';
import type { World } from '../oauth/world';
import { BankProfile } from '../profile/bank-profile';
import type { FundsConfirmationDto } from './dto/funds-confirmation.dto';

/**
 * Berlin Group's confirmation of funds (docs/funds-confirmation.md): whether the account's
 * interimAvailable balance covers the amount now. A question: it changes nothing and counts nothing.
 */
@Injectable()
export class FundsConfirmationService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly consents: ConsentService,
    private readonly profile: BankProfile,
  ) {}

  async fundsAvailable(request: FundsConfirmationDto, consentId: string | undefined, world: World): Promise<boolean> {
    const consented = this.profile.settings.fundsConfirmation?.consent === 'api';
    // The account a client may not see is as unknown as one the bank does not hold (docs/security.md, "Whose data").
    const [account] = await this.accounts.find(
      [consented ? await this.consentedIban(request, consentId, world) : request.account.iban],
      world,
    );
    if (!account) throw unknownAccount(request.account.iban);
    for (const currency of [request.instructedAmount.currency, request.account.currency ?? account.currency]) {
      if (currency !== account.currency)
        throw refusal(
          'currencyInconsistent',
          `account ${account.iban} holds ${account.currency}, not ${currency}`,
          'instructedAmount.currency',
        );
    }
    const available = account.balances.find(({ balanceType }) => balanceType === 'interimAvailable')!.amount;
    return !isBelow(available, request.instructedAmount.amount);
  }

  /** The account of the PIIS consent in Consent-ID, checked in the order of docs/funds-confirmation.md. */
  private async consentedIban(request: FundsConfirmationDto, consentId: string | undefined, world: World): Promise<string> {
    if (!consentId)
      throw new FormatError('Consent-ID', 'the Consent-ID header is required: the consent for the confirmation of funds on this account');
    const consent = await this.consents.findValid(consentId, world, 'piis', 'fundsConsentExpired');
    const granted = fundsAccountOf(consent);
    if (granted.iban !== request.account.iban) {
      throw refusal('noPiisActivation', `consent ${consentId} is for account ${granted.iban}, not ${request.account.iban}`, 'account');
    }
    const card = consent.card!.cardNumber;
    if (card !== null && request.cardNumber !== undefined && request.cardNumber !== card) {
      throw refusal('cardInvalid', `consent ${consentId} is for another card`, 'cardNumber');
    }
    // A consent valid without SCA (SCA_MODE=auto) may name an account the bank does not hold.
    return granted.iban;
  }
}

const unknownAccount = (iban: string) => refusal('fundsAccountUnknown', `account ${iban} unknown`, 'account');
