import { createHash, KeyObject, randomBytes, X509Certificate as NodeCertificate } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { ClockService } from '../clock/clock.service';
import { AnswerMemo } from '../common/answer-memo';
import { addDays, addDaysWithin } from '../common/dates';
import { FormatError, isRefusal, refusal } from '../common/error-catalogue';
import type { Remembered } from '../database/change-feed';
import { Store } from '../database/store';
import { isOwnedBy, World } from '../world/world';
import { BankProfile } from '../profile/bank-profile';
import {
  CertificateRequest,
  createAuthority,
  issueCertificate,
  issueServerCertificate,
  KeyedCertificate,
  newSerial,
} from './certificate-issuer';
import { certificateDer, nameOf } from './certificate-header';
import { serialKey } from './http-signature';
import { CertificateType, Psd2Role, QualifiedFacts, qualifiedFactsOf, WITHOUT_AUTHORITY } from './psd2-statement';
import { CertificateAuthority, TppCertificate } from './tpp-certificate.entity';
import { SignedRequest } from './signed-request.entity';

/** A certificate a request came with, once it passed the checks: whose it is and what it may do. */
export interface CheckedCertificate {
  serialNumber: string;
  certificate: NodeCertificate;
  /** Its public key, read out of the certificate once: what a signature is verified with. */
  publicKey: KeyObject;
  roles: Psd2Role[];
  /** Its issuer's name (nameOf): what a signature's keyId must name. */
  issuer: string;
  /** The client the sandbox issued it to; undefined for one of a trusted CA. */
  ownerId?: string | null;
}

/**
 * What a certificate's bytes alone conclude, once its issuer is found among the CAs the bank
 * trusts: neither the bytes nor those CAs ever change, so a certificate's are worked out once an
 * instance (docs/tpp-identity.md, "What a check costs"). Its validity on a world's today is asked
 * at each request, its revocation and its client of what the instance remembers of its row.
 */
interface ReadCertificate {
  certificate: NodeCertificate;
  publicKey: KeyObject;
  facts: QualifiedFacts;
  /** Its issuer's name, as nameOf writes it. */
  issuer: string;
  serialNumber: string;
  /** Its first and last day (validFrom, validTo as dates). */
  from: string;
  until: string;
}

/** Certificates read, at most, an instance: a few hundred kilobytes of parsed certificates. */
const READ_CERTIFICATES = 1_000;

/** What a certificate's row says at the moment: null where the sandbox did not issue it. */
type Issued = Pick<TppCertificate, 'revoked' | 'ownerId'> | null;

/** PSD2's own roles, whose certificates name the competent authority that authorised them. */
const REGULATED: readonly Psd2Role[] = ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'];

/**
 * The sandbox CA, the certificates it issues to TPPs, and the checks every certificate a request
 * comes with passes (docs/tpp-identity.md): issued by the sandbox CA or one the profile trusts,
 * valid on the sandbox's today, not revoked.
 */
@Injectable()
export class CertificatesService {
  /** The CA never changes once made: read once. */
  private authorityMemo: Promise<KeyedCertificate> | undefined;
  /** It and the profile's trusted CAs, parsed once: what every certificate is checked against. */
  private authoritiesMemo: Promise<NodeCertificate[]> | undefined;
  /** Certificates whose issuer was found, by the SHA-256 of their DER. */
  private readonly read = new AnswerMemo<ReadCertificate>(READ_CERTIFICATES);
  /** The rows of the certificates read, by serial number: each write of one makes every instance read it again. */
  private readonly rows: Remembered<Issued>;

  constructor(
    private readonly store: Store,
    private readonly clock: ClockService,
    private readonly profile: BankProfile,
  ) {
    this.rows = store.remembering(
      TppCertificate,
      async (serialNumber) => {
        const row = await store.findByKey(TppCertificate, serialNumber);
        return row && { revoked: row.revoked, ownerId: row.ownerId };
      },
      READ_CERTIFICATES,
    );
  }

  /** The sandbox CA: made by the first instance that needs it, and whichever instance wins the race, all read the same row. */
  authority(): Promise<KeyedCertificate> {
    this.authorityMemo ??= (async () => {
      const stored = await this.store.findByKey(CertificateAuthority, 1);
      if (stored) return stored;
      const made = await createAuthority();
      await this.store.write(() => this.store.insertIfAbsent(CertificateAuthority, { id: 1, ...made }));
      return (await this.store.findByKey(CertificateAuthority, 1))!;
    })().catch((error: unknown) => {
      this.authorityMemo = undefined;
      throw error;
    });
    return this.authorityMemo;
  }

  /**
   * Issues a certificate valid from the sandbox's today for `validDays` (default 365), stored as the
   * world's. Without an organisationIdentifier it gets `PSDXX-SBX-` and `holder` as far as an
   * identifier may spell it (the client, the organisation), else a random one.
   */
  async issue(
    request: Omit<CertificateRequest, 'notBefore' | 'notAfter' | 'organisationIdentifier'> & {
      validDays?: number;
      organisationIdentifier?: string;
    },
    world: World,
    holder: string | undefined,
  ): Promise<TppCertificate & KeyedCertificate> {
    const today = this.clock.today(world);
    const unregulated = request.roles.filter((role) => WITHOUT_AUTHORITY.includes(role));
    const regulated = request.roles.filter((role) => REGULATED.includes(role));
    if (unregulated.length > 0 && regulated.length > 0) {
      throw new FormatError(
        'roles',
        `${unregulated.join(', ')} name no competent authority (NA) and cannot stand beside ${regulated.join(', ')}, whose certificates name theirs (ETSI TS 119 495 V1.8.1)`,
      );
    }
    const organisationIdentifier =
      request.organisationIdentifier ??
      `PSDXX-${unregulated.length > 0 ? 'NA' : 'SBX'}-${holder?.replace(/[^A-Za-z0-9.-]/g, '').slice(0, 40) || randomBytes(4).toString('hex')}`;
    const terms = { ...request, organisationIdentifier, notBefore: today, notAfter: addDaysWithin(today, request.validDays ?? 365) };
    const serialNumber = newSerial();
    const issued = await issueCertificate(await this.authority(), serialNumber, terms);
    const row: TppCertificate = {
      serialNumber,
      type: request.type,
      organisationName: request.organisationName,
      organisationIdentifier,
      roles: request.roles,
      notBefore: terms.notBefore,
      notAfter: terms.notAfter,
      revoked: false,
      ownerId: world.ownerId,
    };
    await this.store.write(async () => {
      await this.store.insert(TppCertificate, row);
      await this.store.forget(this.rows, serialNumber);
    });
    return { ...row, ...issued };
  }

  /** Revokes a certificate the sandbox issued (the world's, in AUTH_MODE=strict); 404 when there is none. */
  async revoke(serialNumber: string, world: World): Promise<TppCertificate> {
    const found = await this.store.findByKey(TppCertificate, serialKey(serialNumber));
    if (!found || !isOwnedBy(found, world)) throw refusal('certificateUnknown', `certificate ${serialNumber} unknown`);
    // Its spent X-Request-IDs no longer matter: nothing it signs is taken any more (docs/tpp-identity.md).
    await this.store.write(async () => {
      await this.store.change(TppCertificate).update({ serialNumber: found.serialNumber }, { revoked: true });
      await this.store.change(SignedRequest).delete({ serialNumber: found.serialNumber });
      await this.store.forget(this.rows, found.serialNumber);
    });
    return { ...found, revoked: true };
  }

  /**
   * A certificate a client registering itself names (docs/security.md, "Clients register
   * themselves"): its serial number where the sandbox CA issued it and it is neither revoked nor
   * anyone's yet, else null. `claim` then makes it the client's.
   */
  async claimable(value: string): Promise<string | null> {
    const der = certificateDer(value);
    const certificate = der ? readable(der) : null;
    if (!certificate) return null;
    const authority = new NodeCertificate((await this.authority()).certificate);
    if (!certificate.checkIssued(authority) || !certificate.verify(authority.publicKey)) return null;
    const found = await this.store.findByKey(TppCertificate, serialKey(certificate.serialNumber));
    return found && !found.revoked && found.ownerId === null ? found.serialNumber : null;
  }

  /** Inside the write that registers the world's client: the certificate becomes its own, unless another claimed it meanwhile (false). */
  async claim(serialNumber: string, world: World): Promise<boolean> {
    const { affected } = await this.store.change(TppCertificate).update({ serialNumber, ownerId: IsNull() }, { ownerId: world.ownerId });
    if (affected !== 1) return false;
    await this.store.forget(this.rows, serialNumber);
    return true;
  }

  /**
   * The client the sandbox issued a certificate to (CertificateClients); null for one it issued to
   * nobody, or did not issue (neither it nor a CA the bank trusts: the guard then refuses it).
   */
  async ownerOf(der: Buffer): Promise<string | null> {
    const read = await this.readIssued(der).catch((error: unknown) => {
      if (isRefusal(error, 'certificateInvalid')) return null;
      throw error;
    });
    return read && ((await this.rows.get(read.serialNumber))?.ownerId ?? null);
  }

  /** The HTTPS listener's certificate (tpp.qwac: mtls), valid for a year of the bank's date (the open world's: no client moves it in strict mode). */
  async serverCertificate(hosts: string[]): Promise<KeyedCertificate> {
    const today = this.clock.today(World.open);
    return issueServerCertificate(await this.authority(), hosts, addDays(today, -1), addDaysWithin(today, 365));
  }

  /**
   * A certificate a request came with: a header's text (certificateDer), or in DER (null: the
   * header held no single certificate), for its use: a QSealC signs, a QWAC authenticates the connection. The bytes verified are the bytes
   * read: its type and roles, its issuer among the CAs the bank trusts, its validity on the
   * request's world's today, its revocation. The first failure is refused (401, the Berlin Group code of the check).
   */
  async check(presented: string | Buffer | null, use: CertificateType, world: World): Promise<CheckedCertificate> {
    const { certificate, publicKey, facts, issuer, serialNumber, from, until } = await this.readIssued(presented);
    if (facts.type !== use)
      throw refusal(
        'certificateInvalid',
        `the certificate ${certificate.serialNumber} is ${facts.type === null ? 'no qualified certificate' : `a ${NAMES[facts.type]}`}, not a ${NAMES[use]}`,
      );
    const today = this.clock.today(world);
    if (today < from || today >= until)
      throw refusal(
        'certificateExpired',
        `the certificate ${certificate.serialNumber} is valid from ${from} until ${until}, and today is ${today}`,
      );
    // Remembered until a write changes it: a revocation, a claim and a client's deletion hold on every instance at once.
    const issued = await this.rows.get(serialNumber);
    if (issued?.revoked)
      throw refusal(
        this.profile.tpp.revoked === 'CERTIFICATE_REVOKED' ? 'certificateRevoked' : 'certificateRevoke',
        `the certificate ${certificate.serialNumber} is revoked`,
      );
    return { serialNumber, certificate, publicKey, roles: facts.roles, issuer, ownerId: issued?.ownerId };
  }

  /** The bytes read as one certificate issued by a CA the bank trusts, once a certificate; else refused. */
  private async readIssued(presented: string | Buffer | null): Promise<ReadCertificate> {
    // A header's text is its own key: a certificate sent again costs neither its decoding nor a hash (about 35 µs, docs/tpp-identity.md).
    const key =
      typeof presented === 'string'
        ? `header ${presented}`
        : `der ${presented ? createHash('sha256').update(presented).digest('base64') : ''}`;
    const known = this.read.recall(this, key);
    if (known) return known;
    const der = typeof presented === 'string' ? certificateDer(presented) : presented;
    const facts = der ? qualifiedFactsOf(der) : null;
    const certificate = der && facts ? readable(der) : null;
    if (!facts || !certificate)
      throw refusal('certificateInvalid', 'the header holds no single X.509 certificate (base64 DER, or one PEM block)');
    this.authoritiesMemo ??= this.authority().then(
      ({ certificate: own }) => [own, ...this.profile.trustedCAs].map((pem) => new NodeCertificate(pem)),
      (error: unknown) => {
        this.authoritiesMemo = undefined;
        throw error;
      },
    );
    const issuer = (await this.authoritiesMemo).find(
      (authority) => certificate.checkIssued(authority) && certificate.verify(authority.publicKey),
    );
    if (!issuer)
      throw refusal(
        'certificateInvalid',
        `the certificate ${certificate.serialNumber} is issued neither by the sandbox CA nor by a CA the profile trusts`,
      );
    const [from, until] = [certificate.validFrom, certificate.validTo].map((date) => new Date(date).toISOString().slice(0, 10));
    const read = {
      certificate,
      publicKey: certificate.publicKey,
      facts,
      issuer: nameOf(facts.issuer) ?? '',
      serialNumber: serialKey(certificate.serialNumber),
      from,
      until,
    };
    return this.read.keep(this, key, read);
  }
}

const NAMES: Record<CertificateType, string> = { QSEAL: 'QSealC', QWAC: 'QWAC' };

/** The bytes as Node reads a certificate, or null where it cannot. */
function readable(der: Buffer): NodeCertificate | null {
  try {
    return new NodeCertificate(der);
  } catch {
    return null;
  }
}
