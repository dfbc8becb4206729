import { addDays, daysBetween, LAST_DATE } from '../common/dates';

/** A periodic payment's schedule fields, as the Berlin Group body carries them. */
export interface ScheduleTerms {
  startDate: string;
  endDate?: string | null;
  frequency: string;
  dayOfExecution?: string | null;
  executionRule?: string | null;
  monthsOfExecution?: string[] | null;
}

/** Where a schedule resumes: after the instalment with this number and due date. */
export interface ScheduleResume {
  number: number;
  due: string;
}

export interface Instalment {
  /** 1 for the first instalment on or after startDate. */
  number: number;
  /** The calendar date the schedule names. */
  due: string;
  /** `due` moved off a weekend by the execution rule: the day it is executed and booked. */
  executionDate: string;
}

const DAYS: Record<string, number> = { Daily: 1, Weekly: 7, EveryTwoWeeks: 14 };
const MONTHS: Record<string, number> = { Monthly: 1, MonthlyVariable: 1, EveryTwoMonths: 2, Quarterly: 3, SemiAnnual: 6, Annual: 12 };

/**
 * The instalments of a periodic payment in order (docs/living-bank.md, "Periodic payments"):
 * Daily, Weekly and EveryTwoWeeks step from startDate; the monthly frequencies fall on
 * dayOfExecution (startDate's day when absent; "31", or any day a month lacks, is its last day,
 * Berlin Group's "ultimo") of every n-th month from startDate's, MonthlyVariable in
 * monthsOfExecution only. Every instalment due on or before endDate is one; a due date on a
 * Saturday or Sunday moves to the following working day, or the preceding one with
 * executionRule "preceding" unless that is before startDate. Given `after`, it resumes after
 * that instalment at once, however many came before.
 */
export function* instalments(terms: ScheduleTerms, after?: ScheduleResume): Generator<Instalment> {
  const end = terms.endDate && terms.endDate < LAST_DATE ? terms.endDate : LAST_DATE;
  let number = after?.number ?? 0;
  for (const due of dueDates(terms, after?.due)) {
    if (due > end) return;
    const preceding = terms.executionRule === 'preceding' ? toWorkingDay(due, -1) : null;
    const executionDate = preceding !== null && preceding >= terms.startDate ? preceding : toWorkingDay(due, 1);
    yield { number: ++number, due, executionDate };
  }
}

/**
 * How many instalments after `after` execute by `today`, counted up to `most` (beyond it, `most`):
 * the same count as walking `instalments`, without walking the dates a fixed period lets it skip.
 * A due date a week or more before `today` executes by then whatever the execution rule (it moves
 * a date off a weekend, two days at most), so the daily and weekly ones up to there are counted by
 * division; only the last week is walked. What a clock move costs is counted with it before the
 * move runs (docs/scenarios-and-clock.md): ten years of daily instalments in microseconds.
 */
export function countInstalments(terms: ScheduleTerms, after: ScheduleResume | undefined, today: string, most: number): number {
  const days = DAYS[terms.frequency];
  let resume = after;
  let count = 0;
  if (days) {
    const first = resume ? addDays(resume.due, days) : terms.startDate;
    const week = addDays(today, -7);
    const horizon = terms.endDate && terms.endDate < week ? terms.endDate : week;
    if (first <= horizon) {
      count = Math.min(Math.floor(daysBetween(first, horizon) / days) + 1, most);
      resume = { number: (resume?.number ?? 0) + count, due: addDays(first, (count - 1) * days) };
    }
  }
  for (const instalment of instalments(terms, resume)) {
    if (count >= most || instalment.executionDate > today) break;
    count += 1;
  }
  return count;
}

/** The due dates from startDate, or those after `resume` (itself one of them). */
function* dueDates({ startDate, frequency, dayOfExecution, monthsOfExecution }: ScheduleTerms, resume?: string): Generator<string> {
  const days = DAYS[frequency];
  if (days) {
    for (let due = resume ? addDays(resume, days) : startDate; due < LAST_DATE; due = addDays(due, days)) yield due;
    return;
  }
  const step = MONTHS[frequency];
  const months = frequency === 'MonthlyVariable' && monthsOfExecution?.length ? new Set(monthsOfExecution.map(Number)) : null;
  const day = Number(dayOfExecution ?? startDate.slice(8));
  let [year, month] = [Number(startDate.slice(0, 4)), Number(startDate.slice(5, 7))];
  if (resume) [year, month] = [Number(resume.slice(0, 4)), Number(resume.slice(5, 7)) + step];
  while (year <= 9999) {
    year += Math.floor((month - 1) / 12);
    month = ((month - 1) % 12) + 1;
    if (year > 9999) return;
    const due = `${String(year).padStart(4, '0')}-${pad(month)}-${pad(Math.min(day, daysIn(year, month)))}`;
    if (due >= startDate && (!months || months.has(month))) yield due;
    month += step;
  }
}

/** The date itself on a working day, else the nearest working day in `direction` (this sandbox knows weekends, no holidays). */
function toWorkingDay(date: string, direction: 1 | -1): string {
  let day = date;
  while ([0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay())) day = addDays(day, direction);
  return day;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (value: number) => String(value).padStart(2, '0');
