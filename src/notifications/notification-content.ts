import { finalStatuses } from '../common/state-machine';
import { consentMachine } from '../consent/consent.machine';
import { paymentMachine } from '../payment-initiation/payment.machine';

/** What a TPP may ask to be notified of (Berlin Group's TPP-Notification-Content-Preferred, docs/notifications.md). */
export const NOTIFICATION_CONTENTS = ['SCA', 'PROCESS', 'LAST'] as const;
export type NotificationContent = (typeof NOTIFICATION_CONTENTS)[number];

/** What the sandbox notifies when the TPP states no preference. */
export const DEFAULT_CONTENT: NotificationContent[] = ['PROCESS'];

/** `status=SCA, PROCESS`: each constant at most once; null when the value is not of that form. */
export function parseContent(value: string): NotificationContent[] | null {
  const match = /^\s*status\s*=(.*)$/i.exec(value);
  if (!match) return null;
  const items = match[1].split(',').map((item) => item.trim().toUpperCase());
  const known = items.every((item): item is NotificationContent => (NOTIFICATION_CONTENTS as readonly string[]).includes(item));
  return known && new Set(items).size === items.length ? items : null;
}

/** The form of ASPSP-Notification-Content, and of the stored preference. */
export const formatContent = (content: NotificationContent[]): string => `status=${content.join(', ')}`;

/**
 * The resources a TPP may subscribe to (TPP-Notification-URI on their creation), each with its
 * LAST statuses: those its machine declares final, a consent's revokedByPsu, and a payment's ACSP: the bank reports no later
 * status of an executed payment (docs/notifications.md). A service adds its own kinds
 * (NotificationsService.notifyOf).
 */
export type NotifiedKinds = Map<string, ReadonlySet<string>>;
export const coreNotifiedKinds = (): NotifiedKinds =>
  new Map([
    // revokedByPsu is the bank's last word unless the holder re-establishes it (docs/permission-dashboard.md).
    ['consent', new Set([...finalStatuses(consentMachine), 'revokedByPsu'])],
    ['payment', new Set([...finalStatuses(paymentMachine), 'ACSP'])],
  ]);

/** A change as the event history records it. */
export interface Change {
  kind: string;
  toStatus: string;
  event: string;
}

/** Whether a change is one the TPP asked to hear of: SCA for its authorisations, PROCESS or LAST for the resource itself. */
export function isNotified(content: NotificationContent[], change: Change, kinds: NotifiedKinds): boolean {
  if (change.event === 'CREATED') return false; // the TPP holds the answer that created it
  if (change.kind === 'authorisation') return content.includes('SCA');
  const last = kinds.get(change.kind);
  if (!last) return false;
  return content.includes('PROCESS') || (content.includes('LAST') && last.has(change.toStatus));
}

/** Waits before the 2nd, 3rd and 4th attempt of a delivery; after the 4th the sandbox gives up. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000];
