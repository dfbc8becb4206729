// A TPP library nobody here wrote, as it is published (docs/conformance.md, "A third-party client"):
// it signs every request (Digest, Signature, TPP-Signature-Certificate), adds X-Request-ID and, given
// a QWAC, speaks mTLS; the TPP writes the flow around its one `send`.
import PSD2Client from 'js-nextgen-psd2';

export interface LibraryFlowOptions {
  /** Where the sandbox listens: http://… or, over mTLS, https://…. */
  baseUrl: string;
  /** The QSealC the library signs every request with, and its key (PEM). */
  signing: { certificate: string; privateKey: string };
  /** The QWAC of the TLS connection (mTLS), and its key. */
  ssl?: { certificate: string; privateKey: string };
  /** Headers the TPP adds to every request (a bearer token, where the bank requires one). */
  headers?: Record<string, string>;
  /** The account holder's decision on the SCA page (redirect); none in SCA_MODE=auto. */
  approve?: (kind: 'consents' | 'payments', id: string) => Promise<void>;
}

export interface LibraryStep {
  step: string;
  status: number;
  body: unknown;
}

const MARIANNE = 'AT099900000000001511';
const GEORG = 'AT439900000000010017';

/**
 * The flow of a TPP that follows Berlin Group's yaml: a consent to Marianne's balances and
 * transactions, its SCA, her accounts, balances and booked transactions, a SEPA payment to Georg,
 * its SCA and status, and the consent's deletion. Answers every step's status and body; it stops at
 * the first step whose answer gives no ID to go on with.
 */
export async function libraryFlow({ baseUrl, signing, ssl, headers = {}, approve }: LibraryFlowOptions): Promise<LibraryStep[]> {
  const client = new PSD2Client(
    Buffer.from(signing.certificate),
    Buffer.from(signing.privateKey),
    ssl ? { sslCertificate: Buffer.from(ssl.certificate), sslKey: Buffer.from(ssl.privateKey) } : {},
  );
  const steps: LibraryStep[] = [];
  const send = async (step: string, method: string, path: string, extra: Record<string, string> = {}, body?: object) => {
    const answer = await client.send(method, `${baseUrl}${path}`, { ...headers, ...extra }, body);
    steps.push({ step, status: answer.status, body: answer.body });
    return answer.body as Record<string, unknown> & { _links?: Record<string, { href: string }> };
  };
  const device = { 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': 'https://tpp.example/back' };

  const consent = await send('create consent', 'post', '/v1/consents', device, {
    access: { balances: [{ iban: MARIANNE }], transactions: [{ iban: MARIANNE }] },
    recurringIndicator: true,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
    combinedServiceIndicator: false,
  });
  const consentId = consent.consentId as string | undefined;
  if (!consentId) return steps;
  await approve?.('consents', consentId);
  await send('consent status', 'get', `/v1/consents/${consentId}/status`);
  const withConsent = { 'Consent-ID': consentId };
  const list = await send('accounts', 'get', '/v1/accounts', withConsent);
  const account = (list.accounts as { resourceId: string }[] | undefined)?.[0];
  if (!account) return steps;
  await send('balances', 'get', `/v1/accounts/${account.resourceId}/balances`, withConsent);
  await send('transactions', 'get', `/v1/accounts/${account.resourceId}/transactions?bookingStatus=booked`, withConsent);

  const payment = await send('initiate payment', 'post', '/v1/payments/sepa-credit-transfers', device, {
    debtorAccount: { iban: MARIANNE },
    instructedAmount: { currency: 'EUR', amount: '12.50' },
    creditorAccount: { iban: GEORG },
    creditorName: 'Georg Mustermann',
    remittanceInformationUnstructured: 'third-party client',
  });
  const paymentId = payment.paymentId as string | undefined;
  if (!paymentId) return steps;
  const scaStatus = payment._links?.scaStatus?.href;
  if (scaStatus) await send('payment SCA status', 'get', scaStatus);
  await approve?.('payments', paymentId);
  await send('payment status', 'get', `/v1/payments/sepa-credit-transfers/${paymentId}/status`);
  await send('delete consent', 'delete', `/v1/consents/${consentId}`);
  return steps;
}

// Run as its own process (the mTLS flow, which needs the sandbox CA in NODE_EXTRA_CA_CERTS, read at
// start only): the options as JSON in argv, the steps as JSON on stdout.
if (require.main === module) {
  void libraryFlow(JSON.parse(process.argv[2]) as LibraryFlowOptions).then((steps) => process.stdout.write(JSON.stringify(steps)));
}
