import { escapeHtml as escape } from '../common/html';
import { bankPage, CREDENTIAL_FIELDS, type Hidden, hiddenFields, type Row, rowTable } from '../sca/sca-pages';
import type { AccountUse, Permission } from './permission';
import type { PermissionList } from './permissions.service';

/** The permission dashboard's pages (docs/permission-dashboard.md): plain HTML, every dynamic value through escape(). */

const TITLE = 'Your permissions';

const USES: Record<AccountUse, string> = {
  accountDetails: 'account details',
  balances: 'balances',
  transactions: 'transactions',
  trustedBeneficiaries: 'trusted beneficiaries',
  fundsConfirmation: 'whether the balance covers an amount',
};

const alert = (message?: string): string => (message ? `<p class="message" role="alert">${escape(message)}</p>` : '');
const status = (message?: string): string => (message ? `<p class="outcome" role="status">${escape(message)}</p>` : '');

export function signInPage(bank: string, hidden: Hidden, message?: string): string {
  return bankPage(
    bank,
    TITLE,
    `<h1>${TITLE}</h1>
<p>Sign in to see which third-party providers may access your accounts, and to withdraw or re-establish their access.</p>
${alert(message)}
<form method="post" action="/dashboard">
${hiddenFields(hidden)}
${CREDENTIAL_FIELDS}
<div class="buttons"><button type="submit" name="decision" value="approve">Sign in</button></div>
</form>`,
  );
}

/** Who holds the permission, as the holder reads it. */
export const holderOf = ({ tpp }: Permission): string =>
  tpp.name ?? tpp.organisationName ?? 'A third-party provider (not identified: the sandbox runs without client credentials)';

/** A permission line by line. */
export function permissionRows(permission: Permission): Row[] {
  const { tpp } = permission;
  return [
    ['Provider', [tpp.name, tpp.clientId && `client ${tpp.clientId}`].filter(Boolean).join(', ') || 'not identified'],
    ...(tpp.organisationName ? [['Certificate', `${tpp.organisationName}, ${tpp.organisationIdentifier}`] as Row] : []),
    ['Service', permission.service === 'fundsConfirmation' ? 'confirmation of funds' : 'account information'],
    ...permission.accounts.map((account): Row => [
      `${account.iban ?? account.maskedPan} (${account.currency ?? 'any currency'})`,
      account.uses.map((use) => USES[use]).join(', '),
    ]),
    ['Granted on', permission.grantedOn ?? 'not yet'],
    ['Valid until', permission.validUntil],
    ...(permission.service === 'fundsConfirmation'
      ? []
      : [['Accesses per day', `${permission.frequencyPerDay} (used today: ${permission.usedToday})`] as Row]),
    ['Last access', permission.lastAccessOn ?? 'none yet'],
    ['Recurring', permission.recurringIndicator ? 'yes' : 'no (one-off)'],
    ['Status', `${permission.consentStatus} since ${permission.lastActionDate}`],
  ];
}

/** The signed-in holder's permissions, each with what they can do about it, and the record. */
export function listPage(bank: string, list: PermissionList, signOut: Hidden, message?: string): string {
  const section = (permission: Permission, actions = '') =>
    `<section class="permission" aria-label="${escape(permission.consentId)}"><h2>${escape(holderOf(permission))}</h2>${rowTable(permissionRows(permission))}${actions ? `<div class="actions">${actions}</div>` : ''}</section>`;
  const current = list.permissions.map((permission) =>
    section(
      permission,
      [
        permission.canWithdraw
          ? `<a class="action" href="/dashboard/withdrawal?consent_id=${escape(permission.consentId)}">Withdraw access</a>`
          : '',
        permission.canReestablish
          ? `<a class="action" href="/dashboard/reestablishment?consent_id=${escape(permission.consentId)}">Re-establish access</a>`
          : '',
      ].join(''),
    ),
  );
  const record = list.record.map((permission) => section(permission));
  return bankPage(
    bank,
    TITLE,
    `<h1>${TITLE}</h1>
<form class="actions" method="post" action="/dashboard">${hiddenFields(signOut)}<span>Signed in as ${escape(list.psuId)}</span><button type="submit" class="secondary" name="decision" value="sign-out">Sign out</button></form>
${status(message)}
${current.join('\n') || '<p>No provider holds access to your accounts.</p>'}
<section class="record"><h2>Ended</h2><p>Expired, rejected, terminated and withdrawn permissions, for the record, two years after their last change.</p>${record.join('\n') || '<p>None.</p>'}</section>`,
  );
}

/** The confirmation step of a withdrawal or a re-establishment. */
export function confirmationPage(
  bank: string,
  title: string,
  intro: string,
  permission: Permission,
  action: string,
  hidden: Hidden,
  button: string,
  message?: string,
): string {
  return bankPage(
    bank,
    title,
    `<h1>${escape(title)}</h1>
<p>${escape(intro)}</p>
${rowTable(permissionRows(permission))}
${alert(message)}
<form method="post" action="${escape(action)}">
${hiddenFields(hidden)}
<div class="buttons"><button type="submit" name="decision" value="approve">${escape(button)}</button></div>
</form>
<p><a href="/dashboard">Back to your permissions</a></p>`,
  );
}

/** Where the dashboard cannot go on: why, and the way back. */
export function dashboardMessage(bank: string, text: string): string {
  return bankPage(
    bank,
    TITLE,
    `<h1>${TITLE}</h1>\n<p class="outcome">${escape(text)}</p>\n<p><a href="/dashboard">Back to your permissions</a></p>`,
  );
}
