import { randomBytes, webcrypto } from 'node:crypto';
import {
  BasicConstraintsExtension,
  cryptoProvider,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  Extension,
  JsonName,
  KeyUsageFlags,
  KeyUsagesExtension,
  PemConverter,
  SubjectAlternativeNameExtension,
  X509Certificate,
  X509CertificateGenerator,
} from '@peculiar/x509';
import { NO_AUTHORITY, Psd2Role, qcStatementsExtension, WITHOUT_AUTHORITY } from './psd2-statement';

// The WebCrypto of Node, where @peculiar/x509 would look for a browser's.
cryptoProvider.set(webcrypto as unknown as Parameters<typeof cryptoProvider.set>[0]);

/** RSA 2048 with SHA-256, the keys and signatures of every sandbox certificate (docs/tpp-identity.md). */
const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
const AUTHORITY_NAME: JsonName = [{ CN: ['PSD2 Sandbox Test CA'] }, { O: ['PSD2 Sandbox'] }];
/** The competent authority the sandbox's PSD2 statements name: none real. */
const COMPETENT_AUTHORITY = { name: 'PSD2 Sandbox Competent Authority', id: 'XX-SANDBOX' };

/** A certificate and its private key, both PEM (the key PKCS#8). */
export interface KeyedCertificate {
  certificate: string;
  privateKey: string;
}

/** What a TPP asks a certificate for. */
export interface CertificateRequest {
  type: 'QSEAL' | 'QWAC';
  organisationName: string;
  organisationIdentifier: string;
  roles: Psd2Role[];
  /** Dates, YYYY-MM-DD: from the start of the first to the start of the second (UTC). */
  notBefore: string;
  notAfter: string;
}

/** A serial number of 16 random bytes, positive and with no leading zero digit, in lower-case hex. */
export function newSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = 0x10 + (bytes[0] % 0x70);
  return bytes.toString('hex');
}

/** The sandbox's own CA: self-signed, valid 2000 to 2099 so that no move of the sandbox clock, nor the real date, leaves it. */
export async function createAuthority(): Promise<KeyedCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await X509CertificateGenerator.createSelfSigned({
    serialNumber: newSerial(),
    name: AUTHORITY_NAME,
    notBefore: new Date('2000-01-01T00:00:00Z'),
    notAfter: new Date('2099-12-31T23:59:59Z'),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new BasicConstraintsExtension(true, 0, true),
      new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
    ],
  });
  return { certificate: certificate.toString('pem'), privateKey: await pemOf(keys.privateKey) };
}

/** A TPP's certificate: the organisation in the subject, its PSD2 roles in the qcStatements, signed by the authority. */
export async function issueCertificate(
  authority: KeyedCertificate,
  serial: string,
  request: CertificateRequest,
): Promise<KeyedCertificate> {
  const subject: JsonName = [
    { CN: [request.organisationName] },
    { O: [request.organisationName] },
    { '2.5.4.97': [request.organisationIdentifier] },
  ];
  // A seal signs (non-repudiation); a website certificate authenticates a TLS client.
  const usages =
    request.type === 'QSEAL'
      ? [new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation, true)]
      : [
          new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment, true),
          new ExtendedKeyUsageExtension([ExtendedKeyUsage.clientAuth]),
        ];
  // A central bank or public authority has no competent authority: its statement names NA (ETSI TS 119 495 V1.8.1).
  const competent = request.roles.some((role) => WITHOUT_AUTHORITY.includes(role)) ? NO_AUTHORITY : COMPETENT_AUTHORITY;
  return issue(authority, serial, subject, request, [...usages, qcStatementsExtension(request.type, request.roles, competent)]);
}

/** The HTTPS listener's own certificate (tpp.qwac: mtls), for these host names and addresses. */
export async function issueServerCertificate(
  authority: KeyedCertificate,
  hosts: string[],
  today: string,
  notAfter: string,
): Promise<KeyedCertificate> {
  const names = hosts.map((host) =>
    /^[\d.]+$|:/.test(host) ? { type: 'ip' as const, value: host } : { type: 'dns' as const, value: host },
  );
  return issue(authority, newSerial(), [{ CN: [hosts[0]] }], { notBefore: today, notAfter }, [
    new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment, true),
    new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth]),
    new SubjectAlternativeNameExtension(names),
  ]);
}

async function issue(
  authority: KeyedCertificate,
  serial: string,
  subject: JsonName,
  { notBefore, notAfter }: { notBefore: string; notAfter: string },
  extensions: Extension[],
): Promise<KeyedCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const signingKey = await webcrypto.subtle.importKey('pkcs8', PemConverter.decodeFirst(authority.privateKey), ALGORITHM, false, ['sign']);
  const certificate = await X509CertificateGenerator.create({
    serialNumber: serial,
    subject,
    issuer: new X509Certificate(authority.certificate).subjectName,
    notBefore: new Date(`${notBefore}T00:00:00Z`),
    notAfter: new Date(`${notAfter}T00:00:00Z`),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey,
    extensions,
  });
  return { certificate: certificate.toString('pem'), privateKey: await pemOf(keys.privateKey) };
}

async function pemOf(key: webcrypto.CryptoKey): Promise<string> {
  return PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}
