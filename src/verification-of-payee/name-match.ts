import { distance } from 'fastest-levenshtein';

/** Berlin Group's party name match codes: match, close match, no match, not possible (docs/verification-of-payee.md). */
export type NameMatch = 'MTCH' | 'CMTC' | 'NMTC' | 'NOAP';
/** And of an organisation ID: there is no close match of an identifier. */
export type IdMatch = 'MTCH' | 'NMTC' | 'NOAP';

/** Legal forms a name may carry or leave out, as they read once normalised ("e.V." is "ev", "S.A." is "sa"). */
const LEGAL_FORMS = new Set([
  'ag',
  'co',
  'eg',
  'ev',
  'gbr',
  'gmbh',
  'inc',
  'kg',
  'kgaa',
  'llc',
  'ltd',
  'nv',
  'bv',
  'ohg',
  'plc',
  'sa',
  'sarl',
  'se',
  'spa',
  'srl',
  'ug',
]);

/**
 * A name as the match compares it: compatibility forms unfolded, diacritics and case dropped, "ß"
 * as "ss", dots and apostrophes taken out ("e.V.", "O'Brien"), any other punctuation a space, runs
 * of white space one.
 */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[.'’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** How alike two normalised names are, from 0 to 1: one minus the edit distance over the longer length. */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - distance(a, b) / longer;
}

/**
 * The name given against the name registered for the account. Equal once normalised: MTCH. A
 * close match (CMTC, the registered name goes back to the payer) is one that differs only by a
 * legal form left out or another one, by the order of its words ("Mustermann Georg"), or by a
 * few letters: a similarity of at least `closeMatch` without the legal forms. Anything else NMTC.
 */
export function matchName(given: string, registered: string, closeMatch: number): Exclude<NameMatch, 'NOAP'> {
  const [a, b] = [normaliseName(given), normaliseName(registered)];
  if (a === '' || b === '') return 'NMTC';
  if (a === b) return 'MTCH';
  const [coreA, coreB] = [withoutLegalForms(a), withoutLegalForms(b)];
  if (coreA.length === 0 || coreB.length === 0) return 'NMTC';
  const sorted = (words: string[]) => [...words].sort().join(' ');
  if (sorted(coreA) === sorted(coreB)) return 'CMTC';
  return similarity(coreA.join(' '), coreB.join(' ')) >= closeMatch ? 'CMTC' : 'NMTC';
}

/** An organisation ID given against the one registered (compared without case and white space); none registered: NOAP. */
export function matchOrganisationId(given: string[], registered: string | undefined): IdMatch {
  if (registered === undefined) return 'NOAP';
  const plain = (id: string) => id.replace(/\s+/g, '').toUpperCase();
  return given.some((id) => plain(id) === plain(registered)) ? 'MTCH' : 'NMTC';
}

function withoutLegalForms(name: string): string[] {
  return name.split(' ').filter((word) => !LEGAL_FORMS.has(word));
}
