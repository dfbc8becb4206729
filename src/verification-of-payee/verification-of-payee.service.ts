import { Injectable } from '@nestjs/common';
import { Fixtures } from '../bank/fixtures';
import { In } from 'typeorm';
import { AccountStore } from '../bank/account-store';
import { refusal } from '../common/error-catalogue';
import { newResourceId } from '../common/resource-id';
import { Store } from '../database/store';
import { ownedBy, World } from '../world/world';
import { BankProfile } from '../profile/bank-profile';
import { IdMatch, matchName, matchOrganisationId, NameMatch } from './name-match';
import { CheckedParty, PayeeCheck } from './payee-check.entity';

/** One creditor's result in a payment: the fields of originalTransactionInformationAndVopStatus. */
export interface CreditorCheck {
  creditorNameMatch: NameMatch;
  /** CMTC only: the registered name, for the payer to see. */
  matchedCreditorName?: string;
  /** The creditor's bank did not answer: the payment is RVNC. */
  unreachable?: true;
}

/** The payment machine's event for a payment's results: RCVC when every name matched, RVNC when a payee's bank did not answer, else RVCM. */
export function vopEventOf(results: CreditorCheck[]): 'VOP_MATCHED' | 'VOP_MISMATCHED' | 'VOP_NOT_COMPLETED' {
  if (results.some(({ unreachable }) => unreachable)) return 'VOP_NOT_COMPLETED';
  return results.every(({ creditorNameMatch }) => creditorNameMatch === 'MTCH') ? 'VOP_MATCHED' : 'VOP_MISMATCHED';
}

/** What a payment initiation asks of the check (Client-VOP-Requested, Client-VOP-Request-ID). */
export interface VopRequest {
  requested: boolean | null;
  requestId: string | null;
}

/** The party whose registered name the sandbox answers for, or undefined: no bank it can ask (NOAP). */
interface Registered {
  name: string;
  organisationId?: string;
  unreachable?: boolean;
}

/**
 * Verification of Payee (docs/verification-of-payee.md): the registered name of an account (the
 * bank's fixture and scenario accounts by their name, the profile's vop.payees at other banks)
 * against the one a TPP gives, in a dedicated check or in a payment.
 */
@Injectable()
export class VerificationOfPayeeService {
  constructor(
    private readonly store: Store,
    private readonly accounts: AccountStore,
    private readonly profile: BankProfile,
    private readonly fixtures: Fixtures,
  ) {}

  /** Dedicated checks: each answered in order, and stored in one write (as one bulk when `bulk`). */
  async check(parties: CheckedParty[], requestId: string, world: World, bulk: boolean): Promise<PayeeCheck[]> {
    if (this.profile.vop.mode === 'off') throw refusal('vopOff', 'this bank offers no Verification of Payee (vop.mode: off)');
    const registered = await this.registered(
      parties.map(({ partyAccount }) => partyAccount.iban),
      world,
    );
    const bulkId = bulk ? newResourceId() : null;
    const checks = parties.map((request, index): PayeeCheck => {
      const found = registered.get(request.partyAccount.iban);
      const { name, identification } = request.party;
      const nameMatch = name === undefined ? null : this.nameMatch(name, found);
      return {
        id: newResourceId(),
        requestId,
        ownerId: world.ownerId,
        iban: request.partyAccount.iban,
        request,
        nameMatch,
        // An optional field sent as null counts as not sent, as the validation lets it through.
        idMatch: identification == null ? null : idMatch(identification, found),
        matchedName: nameMatch === 'CMTC' ? found!.name : null,
        bulkId,
        position: bulk ? index : null,
      };
    });
    await this.store.write(() => this.store.insertMany(PayeeCheck, checks));
    return checks;
  }

  /** A bulk's entries in their order; 404 when there is none the world may see. */
  async bulk(vopBulkId: string, world: World): Promise<PayeeCheck[]> {
    // The fixture bulk is everyone's (docs/profiles.md, "Fixtures"); a client's own are in the database.
    const fixture = this.fixtures.with(PayeeCheck, 'bulkId', vopBulkId);
    if (fixture.length) return [...fixture];
    const checks = await this.store.read(PayeeCheck).find({ where: { bulkId: vopBulkId, ...ownedBy(world) }, order: { position: 'ASC' } });
    if (checks.length === 0) throw refusal('bulkPayeeCheckUnknown', `bulk payee check ${vopBulkId} unknown`);
    return checks;
  }

  /**
   * A payment's creditors, checked when the TPP asks (either header) or the profile checks every
   * payment; null when it is not checked. Client-VOP-Request-ID must name an earlier dedicated
   * check of this client for one of the creditors; the payment's own names are what is compared.
   */
  async checkCreditors(creditors: { iban: string; name: string }[], request: VopRequest, world: World): Promise<CreditorCheck[] | null> {
    const { mode } = this.profile.vop;
    if (mode === 'off' || (mode === 'on-request' && request.requested !== true && request.requestId === null)) return null;
    if (request.requestId !== null) await this.assertEarlierCheck(request.requestId, creditors, world);
    const registered = await this.registered(
      creditors.map(({ iban }) => iban),
      world,
    );
    return creditors.map(({ iban, name }) => {
      const found = registered.get(iban);
      const creditorNameMatch = this.nameMatch(name, found);
      return {
        creditorNameMatch,
        ...(creditorNameMatch === 'CMTC' ? { matchedCreditorName: found!.name } : {}),
        ...(found?.unreachable ? { unreachable: true as const } : {}),
      };
    });
  }

  private nameMatch(name: string, registered: Registered | undefined): NameMatch {
    return registered === undefined || registered.unreachable ? 'NOAP' : matchName(name, registered.name, this.profile.vop.closeMatch);
  }

  private async assertEarlierCheck(requestId: string, creditors: { iban: string }[], world: World): Promise<void> {
    const earlier = await this.store
      .read(PayeeCheck)
      .existsBy({ requestId, iban: In(creditors.map(({ iban }) => iban)), ...ownedBy(world) });
    if (!earlier) {
      throw refusal(
        'vopRequestUnknown',
        `Client-VOP-Request-ID ${requestId} names no payee check of this client for the creditor of this payment`,
        'Client-VOP-Request-ID',
      );
    }
  }

  /**
   * The registered party of each IBAN that has one: an account of this bank first, then the
   * profile's payees. Another client's scenario account has none: a payee the sandbox cannot ask (NOAP).
   */
  private async registered(ibans: string[], world: World): Promise<Map<string, Registered>> {
    const ours = await this.accounts.find([...new Set(ibans)], world);
    const found = new Map<string, Registered>(ours.map(({ iban, name }) => [iban, { name }]));
    for (const iban of ibans) {
      const payee = found.has(iban) ? undefined : this.profile.externalPayee(iban);
      if (payee) found.set(iban, payee);
    }
    return found;
  }
}

/** The organisation IDs a party's identification gives (lei, anyBIC, others[].identification); a person's ID is never registered here. */
function idMatch(identification: Record<string, unknown>, registered: Registered | undefined): IdMatch {
  if (registered === undefined || registered.unreachable) return 'NOAP';
  const organisation = identification.organisationId as
    { lei?: string | null; anyBIC?: string | null; others?: { identification: string }[] | null } | null | undefined;
  if (organisation == null) return 'NOAP';
  const given = [organisation.lei, organisation.anyBIC, ...(organisation.others ?? []).map((other) => other.identification)].filter(
    (id): id is string => typeof id === 'string',
  );
  return matchOrganisationId(given, registered.organisationId);
}
