/**
 * Exact arithmetic on Berlin Group amounts (decimal strings with up to 3 decimals), in
 * thousandths, so that 0.1 + 0.2 is 0.3 and no float ever decides a funds check.
 */
const SCALE = 1000n;

export function toThousandths(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = amount.replace(/^[-+]/, '').split('.');
  const value = BigInt(whole) * SCALE + BigInt(fraction.padEnd(3, '0').slice(0, 3));
  return negative ? -value : value;
}

/** Formats thousandths with two decimals, or three where the third is not zero. */
export function fromThousandths(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const absolute = value < 0n ? -value : value;
  const fraction = (absolute % SCALE).toString().padStart(3, '0');
  return `${sign}${absolute / SCALE}.${fraction.endsWith('0') ? fraction.slice(0, 2) : fraction}`;
}

export function sumAmounts(amounts: string[]): string {
  return fromThousandths(amounts.reduce((total, amount) => total + toThousandths(amount), 0n));
}

/**
 * The largest amount, and balance, the interface writes: Berlin Group's amount pattern holds 14
 * integer digits and 3 decimals (docs/living-bank.md, "Ceiling").
 */
export const AMOUNT_CEILING = '99999999999999.999';

/** Whether the amount, of either sign, stays within AMOUNT_CEILING. */
export function isWithinCeiling(amount: string): boolean {
  const value = toThousandths(amount);
  return (value < 0n ? -value : value) <= toThousandths(AMOUNT_CEILING);
}

export function isBelow(amount: string, limit: string): boolean {
  return toThousandths(amount) < toThousandths(limit);
}
