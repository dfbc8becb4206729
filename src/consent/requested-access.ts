import { FormatError } from '../common/error-catalogue';
import type { ConsentAccountReferenceDto, CreateConsentDto } from './dto/create-consent.dto';
import { consentedIbans } from './coverage';
import type { AllAccountsKind, ConsentAccess, ConsentedAccount } from './consent.entity';

/**
 * What a consent request asks for, as the consent stores it (ConsentAccess): by the seed bank's
 * rules or by Berlin Group's, as the profile says (consents.access, docs/behaviour.md, "Consent
 * access"). Plain rules: a request they refuse is a FORMAT_ERROR naming its field.
 */

/** The accounts a list of the request names: by IBAN, or (a card account, where the bank shows them) by masked PAN; not both. */
function consented(list: ConsentAccountReferenceDto[] | null | undefined, name: string): ConsentedAccount[] {
  return (list ?? []).map(({ iban, maskedPan, currency }, index) => {
    if (maskedPan == null) return { iban, currency: currency ?? null };
    if (iban != null) throw new FormatError(`access.${name}[${index}]`, 'an account is named by iban or by maskedPan, not both');
    return { maskedPan, currency: currency ?? null };
  });
}

/**
 * The seed bank's rules (consents.access: bank): availableAccounts or allPsd2 ask for every service
 * on every account the holder has, and then the lists are ignored; otherwise balances and
 * transactions name the accounts (`accounts` is ignored).
 */
export function banksAccess(access: CreateConsentDto['access']): ConsentAccess {
  const allAccounts = [access.availableAccounts, access.availableAccountsWithBalance, access.allPsd2].some((value) => value != null);
  if (!allAccounts && !access.balances?.length && !access.transactions?.length) {
    throw new FormatError(
      'access',
      'access must name an account in balances or transactions, or ask for availableAccounts or allPsd2 "allAccounts"',
    );
  }
  const granted: ConsentAccess = allAccounts
    ? { accounts: [], balances: [], transactions: [], availableAccounts: 'allAccounts' }
    : {
        accounts: [],
        balances: consented(access.balances, 'balances'),
        transactions: consented(access.transactions, 'transactions'),
        availableAccounts: null,
      };
  return withTrustedBeneficiaries(granted, access, allAccounts);
}

const LISTS = ['accounts', 'balances', 'transactions'] as const;
const ALL_ACCOUNTS_KINDS: AllAccountsKind[] = ['availableAccounts', 'availableAccountsWithBalance', 'allPsd2'];

/**
 * Berlin Group's rules (consents.access: berlin-group; docs/behaviour.md, "Consent access"):
 * `accounts` grants the accounts' details, `balances` and `transactions` their service and the
 * details; or one request for every account. An empty list would ask for a bank-offered consent,
 * which this bank does not offer; combinedServiceIndicator is required.
 */
export function berlinGroupAccess({ access, combinedServiceIndicator }: CreateConsentDto): ConsentAccess {
  if (combinedServiceIndicator === undefined || combinedServiceIndicator === null)
    throw new FormatError('combinedServiceIndicator', 'combinedServiceIndicator is required');
  const lists = LISTS.filter((name) => access[name] != null);
  const empty = lists.find((name) => access[name]!.length === 0);
  if (empty)
    throw new FormatError(
      `access.${empty}`,
      `access.${empty} is empty: an empty list asks for a consent on the accounts the holder chooses at the bank, which this bank does not offer; name the accounts, or ask for every account (availableAccounts, availableAccountsWithBalance, allPsd2)`,
    );
  const kinds = ALL_ACCOUNTS_KINDS.filter((kind) => access[kind] != null);
  if (kinds.length + (lists.length > 0 ? 1 : 0) !== 1) {
    throw new FormatError(
      'access',
      'access asks for exactly one of: named accounts (accounts, balances, transactions), availableAccounts, availableAccountsWithBalance or allPsd2',
    );
  }
  if (kinds.length === 1) {
    const allAccounts = { kind: kinds[0], value: access[kinds[0]]! };
    return withTrustedBeneficiaries(
      { accounts: [], balances: [], transactions: [], availableAccounts: 'allAccounts', allAccounts },
      access,
      true,
    );
  }
  const granted: ConsentAccess = {
    accounts: [],
    details: consented(access.accounts, 'accounts'),
    balances: consented(access.balances, 'balances'),
    transactions: consented(access.transactions, 'transactions'),
    availableAccounts: null,
  };
  return withTrustedBeneficiaries(granted, access, false);
}

/** Berlin Group: an account in additionalInformation is one the consent names for a service too; for every account, the holder chooses them. */
function withTrustedBeneficiaries(granted: ConsentAccess, access: CreateConsentDto['access'], allAccounts: boolean): ConsentAccess {
  const trusted = access.additionalInformation?.trustedBeneficiaries;
  if (!trusted) return granted;
  const named = new Set(consentedIbans(granted));
  const stray = trusted.find(({ iban }) => allAccounts || !named.has(iban));
  if (stray) {
    const description = allAccounts
      ? 'with availableAccounts or allPsd2, additionalInformation.trustedBeneficiaries must be empty (every account the holder chooses)'
      : `${stray.iban} must be named in balances or transactions too`;
    throw new FormatError('access.additionalInformation.trustedBeneficiaries', description);
  }
  return { ...granted, trustedBeneficiaries: trusted.map(({ iban, currency }) => ({ iban, currency: currency ?? null })) };
}
