import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hasApostrophe, normalize, tokenize, tokenizeAtApostrophes } from '../../../lib/text/normalize';

type Row = readonly [input: string, expected: string, why: string];

const rows: Row[] = [
  ['Amélie', 'amelie', 'accents go, NFC input'],
  ['Ame\u0301lie', 'amelie', 'accents go, NFD input'],
  ['The Dark Knight', 'the dark knight', 'lowercase'],
  ['Léon: The Professional', 'leon the professional', 'punctuation is a word break'],
  ['Spider-Man', 'spider man', 'hyphen is a word break'],
  ['WALL·E', 'wall e', 'middle dot is a word break'],
  ["Ocean's Eleven", 'oceans eleven', 'an apostrophe inside a word joins'],
  ['Ocean’s Eleven', 'oceans eleven', 'a typographic apostrophe joins too'],
  ['Schindler＇s List', 'schindlers list', 'a fullwidth apostrophe joins too'],
  ["L'Avventura", 'lavventura', 'an elision joins (tokenizeAtApostrophes splits it)'],
  ["Rock 'n' Roll High School", 'rock n roll high school', 'apostrophes at word edges separate'],
  ['Hawaiʻi Five-0', 'hawaii five 0', 'the ʻokina, a letter to Unicode, is an apostrophe'],
  ['Pokémon', 'pokemon', 'é'],
  ['Æon Flux', 'aeon flux', 'æ is not split by NFKD'],
  ['Cœur de pirate', 'coeur de pirate', 'œ'],
  ['Die Blechtrommel — Straße', 'die blechtrommel strasse', 'ß, and a dash run is one space'],
  ['Ødipus', 'odipus', 'ø'],
  ['Łódź', 'lodz', 'ł and ź'],
  ['Đorđe', 'dorde', 'đ'],
  ['Þór', 'thor', 'þ'],
  ['Sigur Rós: Heima', 'sigur ros heima', 'ó'],
  ['İstanbul Hatırası', 'istanbul hatirasi', 'Turkish dotted capital and dotless ı'],
  ['ΟΔΥΣΣΕΑΣ', 'οδυσσεασ', 'Greek: final sigma folds to σ'],
  ['Ὀδύσσεια', 'οδυσσεια', 'Greek accents and breathings go'],
  ['Москва слезам не верит', 'москва слезам не верит', 'Cyrillic stays, lowercased'],
  ['Ёжик в тумане', 'ежик в тумане', 'ё is е with an accent'],
  ['千と千尋の神隠し', '千と千尋の神隠し', 'CJK stays whole'],
  ['ｶﾞﾝﾀﾞﾑ', 'ガンダム', 'halfwidth katakana to full, voicing kept'],
  ['となりのトトロ', 'となりのトトロ', 'hiragana and katakana'],
  ['ドラゴンボールZ', 'ドラゴンボールz', 'the long vowel mark is a letter'],
  ['기생충', '기생충', 'Hangul syllables come back composed'],
  ['दिलवाले दुल्हनिया ले जाएंगे', 'दिलवाले दुल्हनिया ले जाएंगे', 'Devanagari vowel signs are kept'],
  ['ฉลาดเกมส์โกง', 'ฉลาดเกมส์โกง', 'Thai vowel and tone marks are kept'],
  ['ＡＫＩＲＡ　１９８８', 'akira 1988', 'fullwidth letters, digits and space'],
  ['ﬁnal ﬂight', 'final flight', 'ligatures'],
  ['Rocky Ⅱ', 'rocky ii', 'roman numeral sign'],
  ['9½ Weeks', '9 1 2 weeks', 'a vulgar fraction starts a new number'],
  ['Spi\u00ADder\u200Dman', 'spiderman', 'soft hyphen and zero-width joiner are invisible'],
  ['M*A*S*H', 'm a s h', 'symbols are breaks'],
  ['  Se7en  ', 'se7en', 'trimmed; digits stay in words'],
  ['Crouching Tiger 🐯 Hidden Dragon', 'crouching tiger hidden dragon', 'emoji are breaks'],
  ['´', '', 'a lone accent is nothing'],
  ['!!!', '', 'no letters'],
  ['', '', 'empty'],
];

describe('normalize', () => {
  for (const [input, expected, why] of rows) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)} (${why})`, () => {
      assert.equal(normalize(input), expected);
    });
  }
});

describe('tokenize', () => {
  const cases: [string, string[]][] = [
    ['Léon: The Professional', ['leon', 'the', 'professional']],
    ['Москва слезам не верит', ['москва', 'слезам', 'не', 'верит']],
    ["Ocean's Eleven", ['oceans', 'eleven']],
    ['  !!!  ', []],
    ['', []],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.deepEqual(tokenize(input), expected));
  }
});

describe('tokenizeAtApostrophes and hasApostrophe', () => {
  const cases: [string, string[], boolean][] = [
    ["L'Avventura", ['l', 'avventura'], true],
    ['L’Étranger', ['l', 'etranger'], true],
    ["Ocean's Eleven", ['ocean', 's', 'eleven'], true],
    ['The Dark Knight', ['the', 'dark', 'knight'], false],
  ];
  for (const [input, expected, has] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(tokenizeAtApostrophes(input), expected);
      assert.equal(hasApostrophe(input), has);
    });
  }
});

// Any text, plus text made of the pieces titles are made of so accents, marks and scripts meet.
const pieces = fc.constantFrom(
  'Amélie',
  'Ame\u0301lie',
  'ÉCOLE',
  'Æ',
  'œ',
  'ß',
  'ẞ',
  'Ø',
  'ł',
  'Þ',
  'İ',
  'ı',
  'Σ',
  'ς',
  'ΆΣ',
  'Ёж',
  'й',
  "'",
  '’',
  'ʼ',
  'ʻ',
  '´',
  '`',
  '-',
  '·',
  ' ',
  '  ',
  '\u00AD',
  '\u200D',
  '\uFE0F',
  '\u0301',
  '\u0308',
  '\u3099',
  'ｶﾞ',
  'が',
  'ポ',
  '千と千尋',
  '기생충',
  'दिल',
  'เกมส์',
  'ﬁ',
  'Ⅻ',
  '½',
  '①',
  'ＡＢ',
  '　',
  '😀',
  '\uD800',
  'ŉ',
  'ǅ',
  'ﾞ',
  'x',
  '7',
);
const texts = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string(),
  fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')),
);

describe('normalize on any input', () => {
  it('gives the same result for NFC, NFD, NFKC and NFKD spellings of a text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const expected = normalize(text);
        for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD'] as const) assert.equal(normalize(text.normalize(form)), expected);
      }),
      { numRuns: 3_000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const once = normalize(text);
        assert.equal(normalize(once), once);
      }),
      { numRuns: 3_000 },
    );
  });

  it('gives lowercase words of letters, digits and kept marks, one space apart, NFC, no Latin accents', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const normal = normalize(text);
        assert.match(normal, /^(?:[\p{L}\p{N}\p{M}]+(?: [\p{L}\p{N}\p{M}]+)*)?$/u);
        assert.equal(normal, normal.toLowerCase());
        assert.equal(normal, normal.normalize('NFC'));
        assert.doesNotMatch(normal.normalize('NFD'), /[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}]\p{M}/u);
        assert.deepEqual(tokenize(text), normal === '' ? [] : normal.split(' '));
      }),
      { numRuns: 3_000 },
    );
  });

  it('ignores case in Latin, Greek and Cyrillic text', () => {
    const letters = fc.constantFrom(...'aeioubcdefghlmnrstzéèêëàâäçñøæœßłđþðσςαβγδεζηθлджзийёыюя '.split(''));
    fc.assert(
      fc.property(
        fc.array(letters, { maxLength: 16 }).map((l) => l.join('')),
        (text) => {
          assert.equal(normalize(text.toUpperCase()), normalize(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
