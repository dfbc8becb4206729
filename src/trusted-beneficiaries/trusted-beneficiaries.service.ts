import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AccountStore } from '../bank/account-store';
import { Fixtures } from '../bank/fixtures';
import { refusal } from '../common/error-catalogue';
import type { Consent } from '../consent/consent.entity';
import { consentedIbans } from '../consent/coverage';
import { Store } from '../database/store';
import { BankProfile, type ProfileSettings } from '../profile/bank-profile';
import type { World } from '../world/world';
import type { ScaExemption } from '../payment-initiation/sca-exemptions.service';
import { TrustedBeneficiary } from './trusted-beneficiary.entity';

/** Whether a payment to a trusted beneficiary is exempted from SCA (profile key scaExemptions.trustedBeneficiaries). */
export const exemptsTrustedBeneficiaries = (settings: ProfileSettings): boolean => settings.scaExemptions?.trustedBeneficiaries === true;

/**
 * The payees each account holder trusts (docs/trusted-beneficiaries.md). The fixture PSUs' are the
 * profile's immutable scenery, answered from its index as AccountStore answers their accounts (a
 * payment's exemption check then costs no query); a scenario PSU's are read from the database.
 */
@Injectable()
export class TrustedBeneficiaries {
  constructor(
    private readonly store: Store,
    private readonly accounts: AccountStore,
    private readonly profile: BankProfile,
    private readonly fixtures: Fixtures,
  ) {}

  /** Those a valid consent lets the TPP list: of the accounts its additionalInformation names (none: all of the consent's), by ID. */
  async listedFor(consent: Consent, world: World): Promise<TrustedBeneficiary[]> {
    const { trustedBeneficiaries } = consent.access;
    if (!trustedBeneficiaries) {
      throw refusal(
        'trustedBeneficiariesNotGranted',
        `consent ${consent.id} does not grant the trusted beneficiaries (access.additionalInformation.trustedBeneficiaries)`,
      );
    }
    const ibans = trustedBeneficiaries.length ? trustedBeneficiaries.map(({ iban }) => iban) : consentedIbans(consent.access);
    const rows = await this.ofAccounts(ibans, world);
    return rows.sort((a, b) => (a.trustedBeneficiaryId < b.trustedBeneficiaryId ? -1 : 1));
  }

  /**
   * The SCA exemption (the descriptor's ports, where scaExemptions.trustedBeneficiaries grants it):
   * a payment from `debtorIban` to every one of `creditorIbans` goes to trusted beneficiaries of
   * that account. Never from an account the client may not see: to it that account has no holder.
   */
  exemption(): ScaExemption {
    return (debtorIban, creditorIbans, world) => this.exempts(debtorIban, creditorIbans, world);
  }

  private async exempts(debtorIban: string, creditorIbans: string[], world: World): Promise<boolean> {
    if (creditorIbans.length === 0) return false;
    const trusted = new Set((await this.ofAccounts([debtorIban], world)).map(({ creditorIban }) => creditorIban));
    return creditorIbans.every((iban) => trusted.has(iban));
  }

  /** The trusted beneficiaries of these accounts: their holders', for every account or for one of these. */
  private async ofAccounts(ibans: string[], world: World): Promise<TrustedBeneficiary[]> {
    const held = (await this.accounts.find(ibans, world)).filter(({ psuId }) => psuId !== null);
    const holders = [...new Set(held.map(({ psuId }) => psuId!))];
    const elsewhere = holders.filter((psuId) => !this.profile.personaOf(psuId));
    const rows = [
      ...holders.flatMap((psuId) => this.fixtures.with(TrustedBeneficiary, 'psuId', psuId)),
      ...(elsewhere.length ? await this.store.read(TrustedBeneficiary).findBy({ psuId: In(elsewhere) }) : []),
    ];
    const accountOf = new Map(held.map(({ iban, psuId }) => [iban, psuId]));
    return rows.filter(({ psuId, debtorIban }) =>
      debtorIban === null ? held.some((account) => account.psuId === psuId) : accountOf.get(debtorIban) === psuId,
    );
  }
}
