import { isIBAN } from 'class-validator';
import type { PaymentBody } from './payment-terms';
import { REFUSED_CREDITORS, refusalOf, rejectionMessage } from './refusals';

const to = (iban: string) => ({ creditorAccount: { iban } });

describe('refused creditors', () => {
  it('are valid IBANs, one per reason', () => {
    expect(Object.keys(REFUSED_CREDITORS).every((iban) => isIBAN(iban))).toBe(true);
    expect(Object.values(REFUSED_CREDITORS).map(({ reason }) => reason)).toEqual(['AC01', 'AC04', 'AC06', 'AM04', 'MS03']);
  });

  it('refuse a single payment to one of them, and a bulk with one among its entries (the first wins)', () => {
    expect(refusalOf(to('AT629900009990000002') as PaymentBody)).toBe('AC04');
    expect(refusalOf(to('AT439900000000010017') as PaymentBody)).toBeNull();
    const bulk = { payments: [to('AT439900000000010017'), to('AT789900009990000005'), to('AT899900009990000001')] };
    expect(refusalOf(bulk as PaymentBody)).toBe('MS03');
  });

  it('say why in words', () => {
    expect(rejectionMessage('AC06')).toBe('Rejected (AC06): the creditor account is blocked.');
  });
});
