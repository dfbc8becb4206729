const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

/** ISO 13616: country code, check digits, BBAN; valid when the rearranged number mod 97 is 1. */
export function isValidIban(value: unknown): value is string {
  if (typeof value !== 'string' || !IBAN_SHAPE.test(value)) return false;
  const digits = (value.slice(4) + value.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** The IBAN of a country's BBAN, with its check digits computed (ISO 13616). */
export function ibanOf(country: string, bban: string): string {
  const digits = (bban + country + '00').replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}
