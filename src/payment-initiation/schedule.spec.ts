import { addDays } from '../common/dates';
import { countInstalments, Instalment, instalments, ScheduleTerms } from './schedule';

/** The first `count` instalments' execution dates (all of them when the schedule ends sooner). */
function dates(terms: ScheduleTerms, count = 6): string[] {
  const found: string[] = [];
  for (const { executionDate } of instalments(terms)) {
    if (found.length === count) break;
    found.push(executionDate);
  }
  return found;
}

describe('instalments: the execution dates of a periodic payment', () => {
  // 2026-03-02 is a Monday.
  it.each<[string, ScheduleTerms, string[]]>([
    [
      'Daily steps a day, and a weekend day moves to Monday',
      { startDate: '2026-03-05', frequency: 'Daily' },
      ['2026-03-05', '2026-03-06', '2026-03-09', '2026-03-09', '2026-03-09', '2026-03-10'],
    ],
    [
      'Daily with preceding: the weekend moves back to Friday',
      { startDate: '2026-03-05', frequency: 'Daily', executionRule: 'preceding' },
      ['2026-03-05', '2026-03-06', '2026-03-06', '2026-03-06', '2026-03-09', '2026-03-10'],
    ],
    [
      'Weekly steps seven days from startDate',
      { startDate: '2026-03-04', frequency: 'Weekly' },
      ['2026-03-04', '2026-03-11', '2026-03-18', '2026-03-25', '2026-04-01', '2026-04-08'],
    ],
    [
      'EveryTwoWeeks steps fourteen days',
      { startDate: '2026-03-04', frequency: 'EveryTwoWeeks' },
      ['2026-03-04', '2026-03-18', '2026-04-01', '2026-04-15', '2026-04-29', '2026-05-13'],
    ],
    [
      "Monthly on startDate's day when dayOfExecution is absent",
      { startDate: '2026-03-10', frequency: 'Monthly' },
      ['2026-03-10', '2026-04-10', '2026-05-11', '2026-06-10', '2026-07-10', '2026-08-10'],
    ],
    [
      "Monthly on dayOfExecution: a day before startDate's starts next month",
      { startDate: '2026-03-10', frequency: 'Monthly', dayOfExecution: '2' },
      ['2026-04-02', '2026-05-04', '2026-06-02', '2026-07-02', '2026-08-03', '2026-09-02'],
    ],
    [
      'Monthly "31" is the month\'s last day (ultimo), leap years too',
      { startDate: '2027-12-01', frequency: 'Monthly', dayOfExecution: '31', executionRule: 'preceding' },
      ['2027-12-31', '2028-01-31', '2028-02-29', '2028-03-31', '2028-04-28', '2028-05-31'],
    ],
    [
      'Monthly "30" in February is its last day, a Saturday here: following moves it to Monday',
      { startDate: '2026-01-30', frequency: 'Monthly' },
      ['2026-01-30', '2026-03-02', '2026-03-30', '2026-04-30', '2026-06-01', '2026-06-30'],
    ],
    [
      'the same with preceding: Friday the 27th',
      { startDate: '2026-01-30', frequency: 'Monthly', executionRule: 'preceding' },
      ['2026-01-30', '2026-02-27', '2026-03-30', '2026-04-30', '2026-05-29', '2026-06-30'],
    ],
    [
      'EveryTwoMonths',
      { startDate: '2026-03-16', frequency: 'EveryTwoMonths' },
      ['2026-03-16', '2026-05-18', '2026-07-16', '2026-09-16', '2026-11-16', '2027-01-18'],
    ],
    [
      'Quarterly across the year end',
      { startDate: '2026-11-16', frequency: 'Quarterly' },
      ['2026-11-16', '2027-02-16', '2027-05-17', '2027-08-16', '2027-11-16', '2028-02-16'],
    ],
    [
      'SemiAnnual',
      { startDate: '2026-03-16', frequency: 'SemiAnnual' },
      ['2026-03-16', '2026-09-16', '2027-03-16', '2027-09-16', '2028-03-16', '2028-09-18'],
    ],
    [
      'Annual from 29 February falls on the 28th in common years (2032-02-29 is a Sunday)',
      { startDate: '2028-02-29', frequency: 'Annual' },
      ['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-03-01', '2033-02-28'],
    ],
    [
      'MonthlyVariable only in monthsOfExecution',
      { startDate: '2026-03-16', frequency: 'MonthlyVariable', dayOfExecution: '16', monthsOfExecution: ['1', '6', '7'] },
      ['2026-06-16', '2026-07-16', '2027-01-18', '2027-06-16', '2027-07-16', '2028-01-17'],
    ],
    [
      'MonthlyVariable without months is monthly',
      { startDate: '2026-03-16', frequency: 'MonthlyVariable' },
      ['2026-03-16', '2026-04-16', '2026-05-18', '2026-06-16', '2026-07-16', '2026-08-17'],
    ],
    [
      'preceding never moves before startDate: a Saturday start goes to Monday',
      { startDate: '2026-03-07', frequency: 'Monthly', executionRule: 'preceding' },
      ['2026-03-09', '2026-04-07', '2026-05-07', '2026-06-05', '2026-07-07', '2026-08-07'],
    ],
    [
      'endDate is the last due date that counts, itself included',
      { startDate: '2026-03-16', endDate: '2026-05-16', frequency: 'Monthly' },
      ['2026-03-16', '2026-04-16', '2026-05-18'],
    ],
    [
      'an endDate before the first due date leaves none',
      { startDate: '2026-03-16', endDate: '2026-03-31', frequency: 'Monthly', dayOfExecution: '1' },
      [],
    ],
    ['the calendar ends with 9999', { startDate: '9999-11-01', frequency: 'Monthly' }, ['9999-11-01', '9999-12-01']],
  ])('%s', (_name, terms, expected) => {
    expect(dates(terms)).toEqual(expected);
  });

  it('numbers instalments from 1 and keeps the due date beside the execution date', () => {
    const [first, second] = instalments({ startDate: '2026-03-07', frequency: 'Weekly' });
    expect([first, second]).toEqual<Instalment[]>([
      { number: 1, due: '2026-03-07', executionDate: '2026-03-09' },
      { number: 2, due: '2026-03-14', executionDate: '2026-03-16' },
    ]);
  });

  it('execution dates never go back, for every frequency and rule', () => {
    for (const frequency of [
      'Daily',
      'Weekly',
      'EveryTwoWeeks',
      'Monthly',
      'EveryTwoMonths',
      'Quarterly',
      'SemiAnnual',
      'Annual',
      'MonthlyVariable',
    ]) {
      for (const executionRule of ['following', 'preceding']) {
        const found = dates(
          { startDate: '2026-01-31', frequency, executionRule, dayOfExecution: frequency === 'Daily' ? null : '31' },
          400,
        );
        expect(found).toEqual([...found].sort());
        expect(found[0] >= '2026-01-31').toBe(true);
      }
    }
  });
});

describe('instalments resumed after one of them', () => {
  it.each<[string, ScheduleTerms]>([
    ['Daily', { startDate: '2026-03-05', frequency: 'Daily' }],
    ['EveryTwoWeeks', { startDate: '2026-03-05', frequency: 'EveryTwoWeeks', endDate: '2027-01-01' }],
    ['Monthly on the 31st', { startDate: '2026-01-31', frequency: 'Monthly', executionRule: 'preceding' }],
    ['Quarterly across year ends', { startDate: '2026-11-30', frequency: 'Quarterly', dayOfExecution: '31' }],
    ['MonthlyVariable', { startDate: '2026-03-16', frequency: 'MonthlyVariable', monthsOfExecution: ['1', '12'] }],
    ['Annual', { startDate: '2028-02-29', frequency: 'Annual' }],
  ])('%s: go on exactly as the whole schedule does', (_name, terms) => {
    const whole = [...take(instalments(terms), 40)];
    for (const at of [0, 1, 7, 20]) {
      expect([...take(instalments(terms, whole[at]), 40 - at - 1)]).toEqual(whole.slice(at + 1));
    }
  });

  it('the last one of the calendar has nothing after it', () => {
    expect([...instalments({ startDate: '9999-12-01', frequency: 'Monthly' }, { number: 1, due: '9999-12-01' })]).toEqual([]);
  });
});

function* take<T>(sequence: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  for (const element of sequence) {
    yield element;
    if (--count === 0) return;
  }
}

describe('countInstalments: what a clock move would execute, counted without walking every date', () => {
  /** The count as walking the schedule gives it. */
  function walked(terms: ScheduleTerms, after: Instalment | undefined, today: string, most: number): number {
    let count = 0;
    for (const { executionDate } of instalments(terms, after)) {
      if (count >= most || executionDate > today) break;
      count += 1;
    }
    return count;
  }

  it.each<[string, ScheduleTerms]>([
    ['Daily', { startDate: '2026-03-18', frequency: 'Daily' }],
    [
      'Daily, preceding, until an end on a Sunday',
      { startDate: '2026-03-14', frequency: 'Daily', executionRule: 'preceding', endDate: '2027-02-28' },
    ],
    ['Weekly from a Saturday', { startDate: '2026-03-21', frequency: 'Weekly' }],
    ['Weekly from a Sunday, preceding', { startDate: '2026-03-22', frequency: 'Weekly', executionRule: 'preceding' }],
    ['EveryTwoWeeks until an end', { startDate: '2026-03-05', frequency: 'EveryTwoWeeks', endDate: '2027-01-01' }],
    ['Monthly on the 31st', { startDate: '2026-01-31', frequency: 'Monthly', executionRule: 'preceding' }],
  ])('%s: the same count as walking it, from the start and resumed, whatever the day and the bound', (_name, terms) => {
    const whole = [...take(instalments(terms), 30)];
    for (const after of [undefined, whole[0], whole[9], whole[29]]) {
      for (const days of [0, 1, 5, 6, 7, 8, 9, 13, 30, 365, 3650]) {
        const today = addDays(terms.startDate, days);
        for (const most of [1, 7, 20_001])
          expect([today, most, countInstalments(terms, after, today, most)]).toEqual([today, most, walked(terms, after, today, most)]);
      }
    }
  });
});
