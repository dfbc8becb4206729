import { matchName, matchOrganisationId, normaliseName, similarity } from './name-match';

const CLOSE_MATCH = 0.8;

describe('matchName', () => {
  it.each([
    // given, registered, result: why
    ['Georg Mustermann', 'Georg Mustermann', 'MTCH'],
    ['georg MUSTERMANN', 'Georg Mustermann', 'MTCH'],
    ['  Georg   Mustermann ', 'Georg Mustermann', 'MTCH'],
    ['Jürgen Müller', 'Jurgen Muller', 'MTCH'],
    ['François Lefèvre', 'Francois Lefevre', 'MTCH'],
    ['Straße Bau', 'Strasse Bau', 'MTCH'],
    ['Müller-Lüdenscheidt', 'Muller Ludenscheidt', 'MTCH'],
    ["O'Brien Ltd.", 'OBrien Ltd', 'MTCH'],
    ['Sportverein Musterstadt e.V.', 'Sportverein Musterstadt eV', 'MTCH'],
    ['Stadtwerke Musterstadt GmbH', 'Stadtwerke Musterstadt', 'CMTC'],
    ['Stadtwerke Musterstadt AG', 'Stadtwerke Musterstadt GmbH', 'CMTC'],
    ['Mustermann Georg', 'Georg Mustermann', 'CMTC'],
    ['Goerg Mustermann', 'Georg Mustermann', 'CMTC'],
    ['Georg Mustermnn', 'Georg Mustermann', 'CMTC'],
    ['Georg Mustermannn', 'Georg Mustermann', 'CMTC'],
    ['Georg Musterman', 'Georg Mustermann', 'CMTC'],
    ['Erika Mustermann', 'Georg Mustermann', 'NMTC'],
    ['Max Mustermann', 'Georg Mustermann', 'NMTC'],
    ['Stadtwerke Beispielstadt GmbH', 'Stadtwerke Musterstadt GmbH', 'NMTC'],
    ['GmbH', 'Stadtwerke Musterstadt GmbH', 'NMTC'],
    ['', 'Georg Mustermann', 'NMTC'],
    ['...', 'Georg Mustermann', 'NMTC'],
    ['G', 'Georg Mustermann', 'NMTC'],
  ])('%j against %j is %s', (given, registered, result) => {
    expect(matchName(given, registered, CLOSE_MATCH)).toBe(result);
  });

  it('an overlong name is no match of a short one, and is compared at once', () => {
    expect(matchName('Georg Mustermann '.repeat(200), 'Georg Mustermann', CLOSE_MATCH)).toBe('NMTC');
  });

  it('a short name has less room for a typo: two letters swapped in five are no close match', () => {
    expect(matchName('Li Uw', 'Li Wu', CLOSE_MATCH)).toBe('NMTC');
  });

  it('the threshold decides a near miss: a stricter bank answers NMTC where the default answers CMTC', () => {
    expect(matchName('Goerg Mustermann', 'Georg Mustermann', 0.95)).toBe('NMTC');
    expect(matchName('Goerg Mustermann', 'Georg Mustermann', 0.5)).toBe('CMTC');
  });
});

describe('normaliseName and similarity', () => {
  it('normalise case, diacritics, punctuation and white space', () => {
    expect(normaliseName(' Ñoño & Søn, S.A. ')).toBe('nono søn sa');
    expect(normaliseName('ＡＢＣ')).toBe('abc');
  });

  it('similarity is one minus the edit distance over the longer length', () => {
    expect(similarity('abcd', 'abcd')).toBe(1);
    expect(similarity('abcd', 'abdc')).toBe(0.5);
    expect(similarity('', '')).toBe(1);
  });
});

describe('matchOrganisationId', () => {
  it.each([
    [['DE123456789'], 'DE123456789', 'MTCH'],
    [['de 123 456 789'], 'DE123456789', 'MTCH'],
    [['X', 'DE123456789'], 'DE123456789', 'MTCH'],
    [['DE987654321'], 'DE123456789', 'NMTC'],
    [['DE123456789'], undefined, 'NOAP'],
  ])('%j against %j is %s', (given, registered, result) => {
    expect(matchOrganisationId(given, registered)).toBe(result);
  });
});
