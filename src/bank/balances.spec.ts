import { deriveBalances, LedgerEntry, LiveBalances, withEntry } from './balances';

const opening: LiveBalances = { interimAvailable: '100.00', forwardAvailable: '90.00' };

describe("balances derived from the sandbox's bookings", () => {
  it.each<[string, LedgerEntry[], LiveBalances]>([
    ['none: the opening balances', [], opening],
    [
      'a booked debit lowers both',
      [{ bookingStatus: 'booked', amount: '-30.10' }],
      { interimAvailable: '69.90', forwardAvailable: '59.90' },
    ],
    [
      'a booked credit raises both',
      [{ bookingStatus: 'booked', amount: '0.20' }],
      { interimAvailable: '100.20', forwardAvailable: '90.20' },
    ],
    [
      'a pending debit lowers forwardAvailable only',
      [{ bookingStatus: 'pending', amount: '-25.00' }],
      { interimAvailable: '100.00', forwardAvailable: '65.00' },
    ],
    ['a pending credit counts once booked, not before', [{ bookingStatus: 'pending', amount: '25.00' }], opening],
    [
      'exact decimals, whatever the order',
      [
        { bookingStatus: 'booked', amount: '-0.10' },
        { bookingStatus: 'booked', amount: '-0.20' },
        { bookingStatus: 'pending', amount: '-0.30' },
      ],
      { interimAvailable: '99.70', forwardAvailable: '89.40' },
    ],
    ['below zero', [{ bookingStatus: 'booked', amount: '-100.01' }], { interimAvailable: '-0.01', forwardAvailable: '-10.01' }],
  ])('%s', (_name, entries, expected) => {
    expect(deriveBalances(opening, entries)).toEqual(expected);
    expect(deriveBalances(opening, [...entries].reverse())).toEqual(expected);
  });

  it('a pending debit taken away (executed or cancelled) leaves the balances as before it', () => {
    const pending: LedgerEntry = { bookingStatus: 'pending', amount: '-42.50' };
    expect(withEntry(withEntry(opening, pending, 1), pending, -1)).toEqual(opening);
  });

  it('executing a pending debit: taken away as pending, added as booked, equals booking it at once', () => {
    const pending: LedgerEntry = { bookingStatus: 'pending', amount: '-42.50' };
    const executed = withEntry(withEntry(withEntry(opening, pending, 1), pending, -1), { bookingStatus: 'booked', amount: '-42.50' }, 1);
    expect(executed).toEqual(deriveBalances(opening, [{ bookingStatus: 'booked', amount: '-42.50' }]));
  });
});
