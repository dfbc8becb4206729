import { loadProfile } from '../profile/load-profile';
import { ibanOf, isValidIban } from '../common/iban';
import { transactionObject } from './transaction-object';
import { SERVICES } from '../services';

describe('transactionObject', () => {
  // Marianne's booked transactions in the seed bank's fixtures, newest first as the file lists them.
  const [fixture, incoming] = loadProfile('bank', SERVICES)
    .rows.transactions.filter(({ accountIban, bookingStatus }) => accountIban === 'AT099900000000001511' && bookingStatus === 'booked')
    .map(({ body }) => body);

  it('has exactly the fields of the bank data, in the same order', () => {
    const built = transactionObject({
      transactionId: 'X-1',
      ownIban: 'AT099900000000001511',
      ownName: 'Marianne Mustermann',
      currency: 'EUR',
      amount: '-1533.11',
      counterpartyName: 'Georg Mustermann',
      counterpartyIban: 'AT439900000000010017',
      bookingDate: '2019-03-05',
      valueDate: '2019-03-05',
      remittanceInformationUnstructured: 'Salary',
      bankTransactionCode: 'PMNT-ICDT-ESCT',
    });
    expect(Object.keys(built)).toEqual(Object.keys(fixture));
    expect({ ...built, transactionId: fixture.transactionId }).toEqual(fixture);
  });

  it('makes the account holder the creditor of an incoming amount, as the bank data does', () => {
    const built = transactionObject({
      transactionId: incoming.transactionId,
      ownIban: 'AT099900000000001511',
      ownName: 'Marianne Mustermann',
      currency: 'EUR',
      amount: '2500.00',
      counterpartyName: 'Muster GmbH',
      counterpartyIban: 'AT611904300234573201',
      bookingDate: '2019-03-01',
      valueDate: '2019-03-01',
      remittanceInformationUnstructured: 'Salary February 2019',
      bankTransactionCode: 'PMNT-RCDT-ESCT',
    });
    expect(built).toEqual(incoming);
  });
});

describe('ibanOf', () => {
  it.each([
    ['AT', '9900000000001511', 'AT099900000000001511'],
    ['DE', '370400440532013000', 'DE89370400440532013000'],
    ['GB', 'NWBK60161331926819', 'GB29NWBK60161331926819'],
  ])('%s %s is %s', (country, bban, iban) => {
    expect(ibanOf(country, bban)).toBe(iban);
    expect(isValidIban(iban)).toBe(true);
  });
});
