/**
 * The dates the sandbox takes: years 1000 to 9999. PostgreSQL has no year 0000 and SQLite would
 * store it, so a bound both engines keep, with room for a year's arithmetic below it (docs/security.md, "Bad input").
 */
export const DATE_PATTERN = '^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}$';
const DATE_ONLY = new RegExp(DATE_PATTERN);

/** The last date the sandbox takes: what never ends (a consent without a card's expiry, an open-ended schedule) ends on it. */
export const LAST_DATE = '9999-12-31';

/** A real calendar date written `YYYY-MM-DD` from 1000-01-01 to 9999-12-31 (rejects 2024-02-30). */
export function isDateOnly(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE_ONLY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const DAY_MS = 86_400_000;

/** The real UTC date, formatted again only when the day changes: a request asks for it several times. */
let realDay = { start: 0, date: '' };
export function utcToday(): string {
  const now = Date.now();
  if (now < realDay.start || now >= realDay.start + DAY_MS) {
    const start = now - (now % DAY_MS);
    realDay = { start, date: new Date(start).toISOString().slice(0, 10) };
  }
  return realDay.date;
}

export function addDays(date: string, days: number): string {
  const result = new Date(`${date}T00:00:00Z`);
  result.setUTCDate(result.getUTCDate() + days);
  return result.toISOString().slice(0, 10);
}

/** The date `days` on, or the calendar's last (LAST_DATE) where that is beyond it: what a term computed near the end of the calendar stores (docs/scenarios-and-clock.md). */
export function addDaysWithin(date: string, days: number): string {
  const later = addDays(date, days);
  return isDateOnly(later) ? later : LAST_DATE;
}

/** How many days `to` is after `from` (negative: before). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The same day `months` later; a day the month lacks becomes its last (01-31 plus one month: 02-28 or 02-29). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, last))).toISOString().slice(0, 10);
}
