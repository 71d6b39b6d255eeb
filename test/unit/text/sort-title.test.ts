import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { filing, LETTERS } from '../../../lib/text/sort-title';

type Row = readonly [title: string, sortTitle: string, letter: string, why: string];

const rows: Row[] = [
  // English
  ['The Matrix', 'matrix', 'M', 'the'],
  [
    'The Lord of the Rings: The Fellowship of the Ring',
    'lord of the rings the fellowship of the ring',
    'L',
    'only the leading article goes',
  ],
  ['A Bug’s Life', 'bugs life', 'B', 'a'],
  ['A Clockwork Orange', 'clockwork orange', 'C', 'a'],
  ['An American in Paris', 'american in paris', 'A', 'an'],
  ['An Education', 'education', 'E', 'an'],
  ['THE THING', 'thing', 'T', 'articles in capitals'],
  ['the usual suspects', 'usual suspects', 'U', 'articles in lowercase'],
  ['A.I. Artificial Intelligence', 'a i artificial intelligence', 'A', '"A." is not the article: no space after it'],
  ['The', 'the', 'T', 'a title that is only an article keeps it'],
  ['A', 'a', 'A', 'a one-letter title'],
  ['The !', 'the', 'T', 'nothing but punctuation after the article: the article stays'],
  ['Theo', 'theo', 'T', 'starts with "the", no space'],
  ['Theodora Goes Wild', 'theodora goes wild', 'T', 'starts with "the", no space'],
  ['Annie Hall', 'annie hall', 'A', 'starts with "an", no space'],
  ['Antz', 'antz', 'A', 'starts with "an", no space'],
  ['Amadeus', 'amadeus', 'A', 'starts with "a", no space'],
  ['Thelma & Louise', 'thelma and louise', 'T', 'starts with "the", no space; & reads as and'],
  // French
  ['Le Samouraï', 'samourai', 'S', 'le, an accent'],
  ['La Haine', 'haine', 'H', 'la'],
  ['Les Misérables', 'miserables', 'M', 'les, an accent'],
  ["L'Avventura", 'avventura', 'A', "l' before a vowel"],
  ['L’Atalante', 'atalante', 'A', "l' with a typographic apostrophe"],
  ["L'Âge d'or", 'age dor', 'A', "l' before an accented capital"],
  ["L' Eclisse", 'eclisse', 'E', "l' and a space"],
  ['Léon', 'leon', 'L', 'Le is not an article inside a word'],
  ['Lesbos', 'lesbos', 'L', 'starts with "les", no space'],
  ['Lemonade', 'lemonade', 'L', 'starts with "le", no space'],
  ['Lady Bird', 'lady bird', 'L', 'starts with "la", no space'],
  ['L.A. Confidential', 'l a confidential', 'L', 'L. is no elision'],
  ['Le Fabuleux Destin d’Amélie Poulain', 'fabuleux destin damelie poulain', 'F', 'le'],
  // German
  ['Der Untergang', 'untergang', 'U', 'der'],
  ['Die Blechtrommel', 'blechtrommel', 'B', 'die'],
  ['Das Boot', 'boot', 'B', 'das'],
  ['Das Leben der Anderen', 'leben der anderen', 'L', 'das'],
  ['Diehard', 'diehard', 'D', 'starts with "die", no space'],
  ['Dasepo Naughty Girls', 'dasepo naughty girls', 'D', 'starts with "das", no space'],
  ['Dersu Uzala', 'dersu uzala', 'D', 'starts with "der", no space'],
  // Spanish
  ['El Laberinto del Fauno', 'laberinto del fauno', 'L', 'el'],
  ['Los Olvidados', 'olvidados', 'O', 'los'],
  ['Las Hurdes', 'hurdes', 'H', 'las'],
  ['Elf', 'elf', 'E', 'starts with "el", no space'],
  ['Elephant', 'elephant', 'E', 'starts with "el", no space'],
  ['Lost in Translation', 'lost in translation', 'L', 'starts with "los", no space'],
  ['Lassie', 'lassie', 'L', 'starts with "las", no space'],
  // Italian
  ['Il Postino', 'postino', 'P', 'il'],
  ['Il Gattopardo', 'gattopardo', 'G', 'il'],
  ['Ilsa', 'ilsa', 'I', 'starts with "il", no space'],
  // Dutch
  ['De Lift', 'lift', 'L', 'de'],
  ['Het Meisje met het Rode Haar', 'meisje met het rode haar', 'M', 'het'],
  ['De-Lovely', 'de lovely', 'D', 'a hyphen is not a space'],
  ['Dead Man', 'dead man', 'D', 'starts with "de", no space'],
  ['Hetty Wainthropp Investigates', 'hetty wainthropp investigates', 'H', 'starts with "het", no space'],
  // Accents and case
  ['Édith et Marcel', 'edith et marcel', 'E', 'an accented capital files under its letter'],
  ['Ängel', 'angel', 'A', 'a, umlaut'],
  ['Øbeast', 'obeast', 'O', 'ø folds to o'],
  ['Æon Flux', 'aeon flux', 'A', 'æ folds to ae'],
  ['Łódź Story', 'lodz story', 'L', 'ł folds to l'],
  ['ÉCOLE', 'ecole', 'E', 'capitals with accents'],
  ['the Édith', 'edith', 'E', 'the article, then an accent'],
  // Digits and symbols
  ['2001: A Space Odyssey', '000000002001 a space odyssey', '#', 'a digit'],
  ['(500) Days of Summer', '000000000500 days of summer', '#', 'a bracket before the number does not count, the number does'],
  ['12 Angry Men', '000000000012 angry men', '#', 'a number'],
  ['The 39 Steps', '000000000039 steps', '#', 'the article, then a number'],
  ['9½ Weeks', '000000000009 000000000001 000000000002 weeks', '#', 'a fraction'],
  ['...And Justice for All', 'and justice for all', 'A', 'leading dots do not count'],
  ['"Crocodile" Dundee', 'crocodile dundee', 'C', 'a leading quote does not count'],
  ['¡Three Amigos!', 'three amigos', 'T', 'an inverted exclamation mark does not count'],
  ['!!!', '', '#', 'nothing but symbols'],
  ['Москва слезам не верит', 'москва слезам не верит', '#', 'Cyrillic is not A–Z'],
  ['千と千尋の神隠し', '千と千尋の神隠し', '#', 'CJK'],
  ['Se7en', 'se000000000007en', 'S', 'a digit inside a word'],
];

describe('filing', () => {
  for (const [title, sortTitle, letter, why] of rows) {
    it(`files ${JSON.stringify(title)} under ${letter} as ${JSON.stringify(sortTitle)}: ${why}`, () => {
      assert.deepEqual(filing(title), { sortTitle, letter });
    });
  }

  // Known misses: English titles whose first word is another language's article. Telling them
  // apart needs the title's language, which the catalogue does not keep.
  for (const [title, letter] of [
    ['Die Hard', 'D'],
    ['Die Another Day', 'D'],
    ['Las Vegas', 'L'],
    ['El Dorado', 'E'],
  ] as const) {
    it(`files ${title} under ${letter}`, { todo: 'an article of another language is read as one' }, () => {
      assert.equal(filing(title).letter, letter);
    });
  }

  it("puts numbers in their order, not their digits' order", () => {
    const titles = [
      'Ocean’s Thirteen',
      "Ocean's 8",
      "Ocean's 11",
      'Rocky 2',
      'Rocky 10',
      'Rocky',
      '10 Things I Hate About You',
      '2 Fast 2 Furious',
      '1917',
    ];
    const sorted = [...titles].sort((a, b) => (filing(a).sortTitle < filing(b).sortTitle ? -1 : 1));
    assert.deepEqual(sorted, [
      '2 Fast 2 Furious',
      '10 Things I Hate About You',
      '1917',
      "Ocean's 8",
      "Ocean's 11",
      'Ocean’s Thirteen',
      'Rocky',
      'Rocky 2',
      'Rocky 10',
    ]);
  });

  it('always answers one of the 27 letters, and the letter its sort title starts with', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (title) => {
        const { sortTitle, letter } = filing(title);
        assert.ok(LETTERS.includes(letter));
        assert.equal(letter === '#' ? !/^[a-z]/.test(sortTitle) : sortTitle.startsWith(letter.toLowerCase()), true);
      }),
      { numRuns: 2_000 },
    );
  });
});
