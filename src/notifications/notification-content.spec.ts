import {
  coreNotifiedKinds,
  formatContent,
  isNotified as isNotifiedOf,
  parseContent,
  type Change,
  type NotificationContent,
} from './notification-content';

const isNotified = (content: NotificationContent[], change: Change) => isNotifiedOf(content, change, coreNotifiedKinds());

describe('TPP-Notification-Content-Preferred', () => {
  it('reads status=X1, ..., Xn with each of SCA, PROCESS and LAST at most once, in any case and spacing', () => {
    expect(parseContent('status=SCA')).toEqual(['SCA']);
    expect(parseContent('status=SCA, PROCESS, LAST')).toEqual(['SCA', 'PROCESS', 'LAST']);
    expect(parseContent(' Status = last,sca ')).toEqual(['LAST', 'SCA']);
    for (const malformed of ['', 'SCA', 'status=', 'status=SCA,,LAST', 'status=SCA, SCA', 'status=PUSH', 'state=SCA'])
      expect(parseContent(malformed)).toBeNull();
    expect(formatContent(['SCA', 'PROCESS'])).toBe('status=SCA, PROCESS');
  });
});

describe('which changes are notified', () => {
  const change = (kind: string, toStatus: string, event = 'X') => ({ kind, toStatus, event });

  it('SCA: every change of an authorisation, never of the resource itself', () => {
    expect(isNotified(['SCA'], change('authorisation', 'psuAuthenticated'))).toBe(true);
    expect(isNotified(['SCA'], change('authorisation', 'finalised'))).toBe(true);
    expect(isNotified(['SCA'], change('payment', 'ACSP'))).toBe(false);
  });

  it('PROCESS: every change of the consent or payment; LAST: only the last status it reaches (final, or an executed payment)', () => {
    for (const status of ['PDNG', 'ACSP', 'RJCT', 'CANC']) expect(isNotified(['PROCESS'], change('payment', status))).toBe(true);
    expect(['PDNG', 'ACSP', 'RJCT', 'CANC'].filter((status) => isNotified(['LAST'], change('payment', status)))).toEqual([
      'ACSP',
      'RJCT',
      'CANC',
    ]);
    expect(
      ['valid', 'rejected', 'expired', 'terminatedByTpp', 'revokedByPsu'].filter((status) =>
        isNotified(['LAST'], change('consent', status)),
      ),
    ).toEqual(['rejected', 'expired', 'terminatedByTpp', 'revokedByPsu']);
    expect(isNotified(['PROCESS'], change('authorisation', 'finalised'))).toBe(false);
  });

  it('never a creation (the TPP holds its answer), nor what is not a status (instalments, bookings, the clock)', () => {
    expect(isNotified(['SCA', 'PROCESS', 'LAST'], change('payment', 'RCVD', 'CREATED'))).toBe(false);
    expect(isNotified(['SCA', 'PROCESS', 'LAST'], change('authorisation', 'received', 'CREATED'))).toBe(false);
    for (const kind of ['instalment', 'booking', 'clock', 'notification'])
      expect(isNotified(['SCA', 'PROCESS', 'LAST'], change(kind, 'executed'))).toBe(false);
  });
});
