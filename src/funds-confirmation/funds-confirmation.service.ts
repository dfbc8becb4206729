import { Injectable } from '@nestjs/common';
import { isBelow } from '../common/amount';
import { LAST_DATE } from '../common/dates';
import { FormatError, refusal } from '../common/error-catalogue';
import { AccountStore } from '../bank/account-store';
import { fundsAccountOf } from '../consent/consent.entity';
import { ConsentService } from '../consent/consent.service';
import type { World } from '../world/world';
import { BankProfile } from '../profile/bank-profile';
import type { FundsConfirmationDto } from './dto/funds-confirmation.dto';
import type { CreateFundsConsentDto } from './dto/create-funds-consent.dto';
import type { Authorisation } from '../authorisation/authorisation.entity';
import type { AuthorisationRequest } from '../authorisation/authorisation.service';
import { ClockService } from '../clock/clock.service';
import type { ConsentStatus } from '../consent/consent.machine';
import type { NotificationRequest } from '../notifications/notification-headers.decorator';

/**
 * Berlin Group's confirmation of funds (docs/funds-confirmation.md): whether the account's
 * interimAvailable balance covers the amount now, a question that changes nothing and counts
 * nothing; and the consents it may be asked under.
 */
@Injectable()
export class FundsConfirmationService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly consents: ConsentService,
    private readonly profile: BankProfile,
    private readonly clock: ClockService,
  ) {}

  /**
   * A consent for the confirmation of funds on one account (docs/funds-confirmation.md): it lasts
   * until the card expires, and its holder authorises it as an account-information consent's.
   */
  async createConsent(
    request: CreateFundsConsentDto,
    authorisationRequest: AuthorisationRequest,
    world: World,
    notification: NotificationRequest | null,
  ): Promise<{ consentId: string; consentStatus: ConsentStatus; authorisation: Authorisation | null; stored: true }> {
    const { account, cardNumber = null, cardExpiryDate = null, cardInformation = null, registrationInformation = null } = request;
    if (cardExpiryDate !== null && cardExpiryDate < this.clock.today(world))
      throw new FormatError('cardExpiryDate', `the card expired on ${cardExpiryDate}`);
    return this.consents.createStored(
      {
        access: {
          accounts: [{ iban: account.iban, currency: account.currency ?? null }],
          balances: [],
          transactions: [],
          availableAccounts: null,
        },
        recurringIndicator: true,
        validUntil: cardExpiryDate ?? LAST_DATE,
        // Not limited: a check of funds is no read of the account (docs/funds-confirmation.md).
        frequencyPerDay: 0,
        card: { cardNumber, cardExpiryDate, cardInformation, registrationInformation },
      },
      authorisationRequest,
      world,
      notification,
    );
  }

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
