import { fromThousandths, isBelow, sumAmounts, toThousandths } from './amount';

describe('amounts', () => {
  it.each([
    ['1', 1000n],
    ['0.1', 100n],
    ['1533.11', 1533110n],
    ['-5988.00', -5988000n],
    ['99999999999999.999', 99999999999999999n],
  ])('%s is %d thousandths', (amount, thousandths) => {
    expect(toThousandths(amount)).toBe(thousandths);
  });

  it.each([
    [1000n, '1.00'],
    [100n, '0.10'],
    [1533115n, '1533.115'],
    [-5988000n, '-5988.00'],
    [0n, '0.00'],
  ])('%d thousandths read %s', (thousandths, amount) => {
    expect(fromThousandths(thousandths)).toBe(amount);
  });

  it('adds exactly', () => {
    expect(sumAmounts(['0.1', '0.2'])).toBe('0.30');
    expect(sumAmounts(['1000.005', '2000.005', '0.99'])).toBe('3001.00');
  });

  it('compares exactly', () => {
    expect(isBelow('2850.49', '2850.50')).toBe(true);
    expect(isBelow('2850.50', '2850.50')).toBe(false);
    expect(isBelow('2850.5', '2850.49')).toBe(false);
    expect(isBelow('10', '9.999')).toBe(false);
  });
});
