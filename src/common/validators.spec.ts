import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { addDays, isDateOnly } from './dates';
import { isValidIban } from './iban';
import { IsAmount, IsBic, IsCurrency, IsDateOnly, IsIban } from './validators';

class Sample {
  @IsIban() iban: string;
  @IsBic() bic: string;
  @IsCurrency() currency: string;
  @IsAmount() amount: string;
  @IsDateOnly() date: string;
}

const valid = { iban: 'AT099900000000001511', bic: 'TESTAT99', currency: 'EUR', amount: '123.45', date: '2024-02-29' };
const failing = (field: keyof Sample, value: unknown) =>
  validateSync(plainToInstance(Sample, { ...valid, [field]: value })).map((error) => error.property);

describe('field validators', () => {
  it('accept a valid sample', () => {
    expect(validateSync(plainToInstance(Sample, valid))).toEqual([]);
  });

  it.each([
    ['iban', 'AT099900000000001512'], // checksum off by one
    ['iban', 'at099900000000001511'],
    ['iban', 'AT09 9900 0000 0000 1511'],
    ['iban', 'AT09'],
    ['iban', 42],
    ['bic', 'TESTAT9'],
    ['bic', 'TESTAT99XX'],
    ['bic', 'testat99'],
    ['currency', 'eur'],
    ['currency', 'EURO'],
    ['amount', '0'],
    ['amount', '0.00'],
    ['amount', '-1.00'],
    ['amount', '1.2345'],
    ['amount', '1,00'],
    ['amount', '123456789012345'],
    ['amount', 12.5],
    ['date', '2023-02-29'],
    ['date', '2024-13-01'],
    ['date', '2024-1-01'],
    ['date', '2024-01-01T00:00:00Z'],
  ] as [keyof Sample, unknown][])('reject %s = %j', (field, value) => {
    expect(failing(field, value)).toEqual([field]);
  });

  it.each(['TESTAT99XXX', 'DEUTDEFF500'])('accept the 11-character BIC %s', (bic) => {
    expect(failing('bic', bic)).toEqual([]);
  });

  it.each(['0.01', '1', '99999999999999.999'])('accept the amount %s', (amount) => {
    expect(failing('amount', amount)).toEqual([]);
  });
});

describe('IBAN checksum', () => {
  it.each(['AT099900000000001511', 'AT439900000000010017', 'DE89370400440532013000', 'GB29NWBK60161331926819'])('%s is valid', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it.each(['DE89370400440532013001', 'GB29NWBK60161331926818'])('%s is not', (iban) => {
    expect(isValidIban(iban)).toBe(false);
  });
});

describe('dates', () => {
  it('knows leap years', () => {
    expect(isDateOnly('2024-02-29')).toBe(true);
    expect(isDateOnly('2100-02-29')).toBe(false);
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-03-15', 180)).toBe('2026-09-11');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
