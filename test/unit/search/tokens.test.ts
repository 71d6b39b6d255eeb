import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { titleTokens } from '../../../lib/search/tokens';

// Exactly the tokens a title is indexed under, sorted for comparison.
const rows: [title: string, tokens: string[], why: string][] = [
  ['Amélie', ['amelie'], 'one word'],
  ['The Dark Knight', ['dark', 'darkknight', 'knight', 'the', 'thedark'], 'words and neighbouring pairs'],
  ['Spider-Man', ['man', 'spider', 'spiderman'], 'a hyphenated pair'],
  ['WALL·E', ['e', 'wall', 'walle'], 'a middle-dot pair'],
  ['S.W.A.T.', ['a', 'at', 's', 'sw', 'swat', 't', 'w', 'wa'], 'a dotted acronym joins whole'],
  ['Merry-Go-Round', ['go', 'goround', 'merry', 'merrygo', 'merrygoround', 'round'], 'three hyphenated words join whole'],
  ['M*A*S*H', ['a', 'as', 'h', 'm', 'ma', 's', 'mash', 'sh'], 'so does a starred one'],
  [
    'Agents of S.H.I.E.L.D.',
    ['agents', 'agentsof', 'of', 'ofs', 's', 'sh', 'h', 'hi', 'i', 'ie', 'e', 'el', 'l', 'ld', 'd', 'shield'],
    'only the punctuation-joined run is joined whole',
  ],
  ["Ocean's Eleven", ['eleven', 'ocean', 'oceans', 'oceanseleven', 's'], 'apostrophe: joined and split'],
  ["L'Avventura", ['avventura', 'l', 'lavventura'], 'an elision: the word after it'],
  [
    '千と千尋の神隠し',
    ['千と千尋の神隠し', 'と千尋の神隠し', '千尋の神隠し', '尋の神隠し', 'の神隠し', '神隠し', '隠し', 'し'],
    'every tail of an unspaced word',
  ],
  ['ฉลาดเกมส์', ['ฉลาดเกมส์', 'ลาดเกมส์', 'าดเกมส์', 'ดเกมส์', 'เกมส์', 'กมส์', 'มส์', 'ส์'], 'Thai tails never start with a mark'],
  ['Москва слезам не верит', ['верит', 'москва', 'москваслезам', 'не', 'неверит', 'слезам', 'слезамне'], 'Cyrillic'],
  ['!!!', [], 'nothing to find it by'],
];

describe('titleTokens', () => {
  for (const [title, tokens, why] of rows) {
    it(`${JSON.stringify(title)}: ${why}`, () => {
      assert.deepEqual(titleTokens(title).sort(), [...tokens].sort());
    });
  }

  it('holds no duplicates', () => {
    const tokens = titleTokens('Spider-Man: Into the Spider-Verse');
    assert.equal(new Set(tokens).size, tokens.length);
    assert.ok(tokens.includes('spiderman') && tokens.includes('spiderverse'));
  });
});
