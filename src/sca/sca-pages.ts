import { escapeHtml as escape, htmlDocument } from '../common/html';
import { accountKey, Consent, fundsAccountOf } from '../consent/consent.entity';
import { type AccountService, servicesByAccount } from '../consent/coverage';
import type { Payment } from '../payment-initiation/payment.entity';

/** Server-rendered online-banking pages: plain HTML, no build step. Every dynamic value goes through escape(). */

export type Row = [label: string, value: string];

/** What the form posts back, besides the PSU's login and decision. */
export type Hidden = Record<string, string>;

/** The pages' only stylesheet, inline; the Content-Security-Policy allows exactly this text by its hash. */
export const PAGE_STYLE = `
  body { font-family: system-ui, sans-serif; background: #eef2f6; margin: 0; color: #1c2733; }
  header { background: #0b3d63; color: #fff; padding: 14px 24px; font-weight: 600; }
  main { max-width: 560px; margin: 32px auto; background: #fff; padding: 24px 28px; border-radius: 8px; box-shadow: 0 1px 4px #0002; }
  h1 { font-size: 1.3rem; margin-top: 0; }
  table { border-collapse: collapse; width: 100%; margin: 12px 0 20px; }
  th, td { text-align: left; padding: 6px 4px; border-bottom: 1px solid #e3e8ee; vertical-align: top; }
  th { color: #52606d; font-weight: 500; width: 42%; }
  label { display: block; margin: 10px 0 4px; }
  input[type=text], input[type=password] { width: 100%; padding: 8px; box-sizing: border-box; }
  .buttons { display: flex; gap: 12px; margin-top: 20px; }
  button { flex: 1; padding: 10px; font-size: 1rem; border: 0; border-radius: 6px; cursor: pointer; }
  button[value=approve] { background: #1a7f37; color: #fff; }
  button[value=deny] { background: #d0d7de; }
  .message { padding: 10px 12px; border-radius: 6px; background: #fde8e8; color: #8a1c1c; }
  .outcome { font-size: 1.1rem; }
  .permission { border: 1px solid #d0d7de; border-radius: 6px; padding: 4px 14px; margin: 16px 0; }
  .permission h2, .record h2 { font-size: 1.05rem; }
  .actions { display: flex; gap: 12px; align-items: center; margin: 0 0 12px; }
  a.action { padding: 8px 14px; border-radius: 6px; background: #0b3d63; color: #fff; text-decoration: none; }
  button.secondary { flex: 0; padding: 6px 12px; background: #d0d7de; }
`;

/** Every page names the bank of the profile (docs/profiles.md, "name"). */
export const bankPage = (bank: string, title: string, body: string): string =>
  htmlDocument(`${title} - ${bank}`, PAGE_STYLE, `${escape(bank)} &middot; Online banking`, body);

export const rowTable = (rows: Row[]): string =>
  `<table>${rows.map(([label, value]) => `<tr><th>${escape(label)}</th><td>${escape(value)}</td></tr>`).join('')}</table>`;

/** What a form posts back unseen (its id, its CSRF token). */
export const hiddenFields = (hidden: Hidden): string =>
  Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');

/** The account holder's login, as every form of the bank's pages asks it. */
export const CREDENTIAL_FIELDS = `<label for="psuId">PSU ID</label><input type="text" id="psuId" name="psuId" autocomplete="username" required>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>`;

/** The choices a page offers, by the decision each posts. */
export type Buttons = Partial<Record<'approve' | 'deny', string>>;

/** The page that asks the account holder to log in and decide. */
export function decisionPage(
  bank: string,
  title: string,
  intro: string,
  rows: Row[],
  action: string,
  hidden: Hidden,
  buttons: Buttons,
  message?: string,
): string {
  return bankPage(
    bank,
    title,
    `<h1>${escape(title)}</h1>
<p>${escape(intro)}</p>
${rowTable(rows)}
${message ? `<p class="message" role="alert">${escape(message)}</p>` : ''}
<form method="post" action="${escape(action)}">
${hiddenFields(hidden)}
${CREDENTIAL_FIELDS}
<div class="buttons">${Object.entries(buttons)
      .map(([value, label]) => `<button type="submit" name="decision" value="${value}">${escape(label)}</button>`)
      .join('')}</div>
</form>`,
  );
}

/** The end of the flow when the TPP gave no address to return to, and every page that cannot go on. */
export function messagePage(bank: string, title: string, text: string): string {
  return bankPage(bank, title, `<h1>${escape(title)}</h1>\n<p class="outcome">${escape(text)}</p>`);
}

const SERVICES: Record<AccountService, string> = { details: 'account details', balances: 'balances', transactions: 'transactions' };

/** What a consent grants, account by account (the coverage rule in words); for the confirmation of funds, on its account for its card. */
export function consentRows(consent: Consent, names: Map<string, string>): Row[] {
  // A card account is named by its masked PAN (docs/card-accounts.md).
  const named = (key: string) => `${key}${names.has(key) ? ` (${names.get(key)})` : ''}`;
  if (consent.card) {
    const { cardNumber, cardInformation, registrationInformation } = consent.card;
    return [
      [named(fundsAccountOf(consent).iban), 'confirmation of funds: whether the balance covers an amount, nothing more'],
      ...(cardNumber ? [['Card', cardNumber] as Row] : []),
      ...[cardInformation, registrationInformation].flatMap((text): Row[] => (text ? [['Information', text]] : [])),
      ['Valid until', consent.validUntil],
    ];
  }
  const accountRows: Row[] =
    consent.access.availableAccounts === 'allAccounts'
      ? [['All your accounts', 'account details, balances, transactions']]
      : servicesByAccount(consent.access).map(({ reference, services }) => [
          named(accountKey(reference)),
          services.map((service) => SERVICES[service]).join(', '),
        ]);
  return [
    ...accountRows,
    ['Valid until', consent.validUntil],
    ['Accesses per day', String(consent.frequencyPerDay)],
    ['Recurring', consent.recurringIndicator ? 'yes' : 'no (one-off)'],
  ];
}

type Amount = { currency: string; amount: string };
type Party = { creditorName: string; creditorAccount: { iban: string }; instructedAmount: Amount };

/** Debtor, creditor(s), amount and execution date of a payment, whatever its product. */
export function paymentRows(payment: Payment): Row[] {
  const body = payment.body as unknown as Partial<Party> & {
    payments?: Party[];
    requestedExecutionDate?: string | null;
    startDate?: string;
    endDate?: string;
    frequency?: string;
  };
  const parties: Party[] = body.payments ?? [body as Party];
  const when: Row[] = body.startDate
    ? [
        ['First execution', body.startDate],
        ['Frequency', body.frequency ?? ''],
        ['Last execution', body.endDate ?? 'until cancelled'],
      ]
    : [['Execution date', body.requestedExecutionDate ?? 'immediately']];
  return [
    ['From account', payment.debtorIban],
    ...parties.flatMap(({ creditorName, creditorAccount, instructedAmount }): Row[] => [
      ['To', `${creditorName}, ${creditorAccount.iban}`],
      ['Amount', `${instructedAmount.amount} ${instructedAmount.currency}`],
    ]),
    ...(parties.length > 1 ? ([['Total', `${payment.amount} ${payment.currency}`]] as Row[]) : []),
    ...when,
  ];
}
