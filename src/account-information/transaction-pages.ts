import type { BookingStatus } from '../bank/account.entity';
import type { TransactionFilter } from '../bank/account-store';
import { FormatError, refusal } from '../common/error-catalogue';
import { href, Href } from '../common/links';
import { DEFAULT_PAGE_SIZE } from './dto/account-query.dto';

/** What a transaction list of an account or a card account is asked for (the query of either route). */
export interface ListQuery {
  bookingStatus: BookingStatus | 'both';
  dateFrom?: string;
  dateTo?: string;
  page?: string;
  pageSize?: string;
}

export type PageLinks = Record<'first' | 'next' | 'previous' | 'last', Href>;

/** The statuses a bookingStatus asks for: `both` is booked and pending. */
export const askedStatuses = ({ bookingStatus }: ListQuery): BookingStatus[] =>
  bookingStatus === 'both' ? ['booked', 'pending'] : [bookingStatus];

/** The bodies of the rows of `status` where the query asked for it; null (left out of the answer) where it did not. */
export const listOf = <Body>(
  rows: { bookingStatus: BookingStatus; body: Body }[],
  asked: BookingStatus[],
  status: BookingStatus,
): Body[] | null => (asked.includes(status) ? rows.filter((row) => row.bookingStatus === status).map((row) => row.body) : null);

/** The filter of the query; 400 PERIOD_INVALID (XS2A010E) where dateFrom is after dateTo. */
export function periodOf({ dateFrom, dateTo }: ListQuery, statuses: BookingStatus[]): TransactionFilter {
  if (dateFrom && dateTo && dateFrom > dateTo) {
    throw refusal('periodInvalid', `dateFrom ${dateFrom} is after dateTo ${dateTo}`, 'dateFrom');
  }
  return { statuses, from: dateFrom, to: dateTo };
}

/**
 * The page asked for: the same slice of each list, and links to the first, next, previous and
 * last page, each the request's own query (on `path`) with another page (docs/behaviour.md).
 * Lists that fit one page get no page links, and answer as they always did.
 */
export function onePage<Lists extends Record<string, unknown[] | null>>(
  lists: Lists,
  path: string,
  query: ListQuery,
): { lists: Lists; links: Partial<PageLinks>; number: number; size: number; last: number } {
  const size = Number(query.pageSize ?? DEFAULT_PAGE_SIZE);
  const page = Number(query.page ?? 1);
  const last = Math.max(1, ...Object.values(lists).map((list) => Math.ceil((list?.length ?? 0) / size)));
  if (page > last) throw new FormatError('page', `page ${page} is beyond the last page, ${last}`);
  const sliced = Object.fromEntries(
    Object.entries(lists).map(([status, list]) => [status, list && list.slice((page - 1) * size, page * size)]),
  ) as Lists;
  if (last === 1) return { lists: sliced, links: {}, number: page, size, last };
  const { bookingStatus, dateFrom, dateTo, pageSize } = query;
  const pageHref = (number: number) => {
    const asked = Object.entries({ bookingStatus, dateFrom, dateTo, pageSize }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    return href(`${path}?${new URLSearchParams([...asked, ['page', String(number)]])}`);
  };
  return {
    lists: sliced,
    number: page,
    size,
    last,
    // In the order of the yaml's _linksAccountReport and _linksCardAccountReport.
    links: {
      first: pageHref(1),
      ...(page < last ? { next: pageHref(page + 1) } : {}),
      ...(page > 1 ? { previous: pageHref(page - 1) } : {}),
      last: pageHref(last),
    },
  };
}
