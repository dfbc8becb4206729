import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadProfile } from '../profile/load-profile';
import { SERVICES } from '../services';
import { CardAccount, CardTransaction } from './card-account.entity';

describe('loadProfile: card accounts', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-cards-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('berlin-group shows two; a card file without cardAccounts: true, an unknown holder, an ID or masked PAN twice, a transaction twice or in another currency stop the start naming each', () => {
    const berlinGroup = loadProfile('berlin-group', SERVICES);
    expect([berlinGroup.provides('cardAccounts'), berlinGroup.requestGroups.includes('cardAccounts')]).toEqual([true, true]);
    expect(berlinGroup.fixturesOf(CardAccount).map(({ resourceId, maskedPan, psuId }) => [resourceId, maskedPan, psuId])).toEqual([
      ['card-georg-visa', '492950xxxxxx4711', 'georg.mustermann'],
      ['card-susanne-mastercard', '545454xxxxxx2476', 'susanne.mustermann'],
    ]);
    expect(
      berlinGroup
        .fixturesOf(CardTransaction)
        .map(({ transactionId, bookingStatus, bookingDate }) => [transactionId, bookingStatus, bookingDate]),
    ).toEqual([
      ['4711-B01', 'booked', '2019-03-05'],
      ['4711-B02', 'booked', '2019-03-02'],
      ['4711-B03', 'booked', '2019-02-27'],
      ['4711-P01', 'pending', '2019-03-06'],
      ['2476-B01', 'booked', '2019-03-04'],
    ]);
    const bank = loadProfile('bank', SERVICES);
    expect([bank.provides('cardAccounts'), bank.fixturesOf(CardAccount), bank.fixturesOf(CardTransaction)]).toEqual([false, [], []]);

    mkdirSync(join(folder, 'fixtures'));
    writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\n');
    const spend = (id: string, currency = 'EUR') => ({
      cardTransactionId: id,
      transactionDate: '2019-03-01',
      bookingDate: '2019-03-02',
      transactionAmount: { currency, amount: '-1.00' },
    });
    const card = (resourceId: string, psuId: string, maskedPan: string, booked: object[] = []) => ({
      resourceId,
      psuId,
      maskedPan,
      currency: 'EUR',
      name: 'Card',
      product: 'Visa',
      balances: [{ balanceType: 'interimBooked', amount: '0.00', referenceDate: '2019-03-01' }],
      transactions: { booked },
    });
    const cards = [
      card('a', 'nobody', '123456xxxxxx1234'),
      card('a', 'georg.mustermann', '123456xxxxxx1234', [spend('t'), spend('t', 'CHF')]),
    ];
    writeFileSync(join(folder, 'fixtures', 'cardAccounts.json'), JSON.stringify(cards));
    const file = relative(process.cwd(), join(folder, 'profile.yaml'));
    const fixtures = relative(process.cwd(), join(folder, 'fixtures', 'cardAccounts.json'));
    expect(() => loadProfile(folder, SERVICES)).toThrow(
      `PROFILE=${folder} cannot be used:\n  ${fixtures}: needs cardAccounts: true in ${file} (a bank that does not offer it holds none of its fixtures)`,
    );

    writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\ncardAccounts: true\n');
    const problems = [
      `${fixtures}: [0].psuId: nobody is not in psus.json`,
      `${fixtures}: [1].resourceId: a is listed twice`,
      `${fixtures}: [1].maskedPan: 123456xxxxxx1234 is listed twice`,
      `${fixtures}: [1].transactions.booked[1].cardTransactionId: t is used twice on this card`,
      `${fixtures}: [1].transactions.booked[1].transactionAmount.currency: must be the card's currency, EUR`,
    ];
    expect(() => loadProfile(folder, SERVICES)).toThrow(
      `PROFILE=${folder} cannot be used:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    );
  });
});
