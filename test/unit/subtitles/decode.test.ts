import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SUBTITLE_BYTES, decodeSubtitle } from '../../../lib/subtitles/decode';

const SRT = '1\r\n00:00:01,000 --> 00:00:02,500\r\nCafé à Paris\r\n';

// UTF-16 code units written out byte by byte, so the test does not lean on the decoder it checks.
const utf16 = (text: string, order: 'le' | 'be'): number[] =>
  [...text].flatMap((c) => {
    const unit = c.charCodeAt(0);
    return order === 'le' ? [unit & 0xff, unit >> 8] : [unit >> 8, unit & 0xff];
  });
const utf8 = (text: string): number[] => [...new TextEncoder().encode(text)];

describe('decodeSubtitle', () => {
  it('reads UTF-8 with a byte order mark and drops the mark', () => {
    const result = decodeSubtitle(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(SRT)]));
    assert.deepEqual(result, { text: SRT, encoding: 'utf-8' });
  });

  it('reads UTF-8 without a mark', () => {
    assert.deepEqual(decodeSubtitle(new Uint8Array(utf8(SRT))), { text: SRT, encoding: 'utf-8' });
  });

  it('reads plain ASCII and an empty file as UTF-8', () => {
    assert.deepEqual(decodeSubtitle(new Uint8Array([0x48, 0x69])), { text: 'Hi', encoding: 'utf-8' });
    assert.deepEqual(decodeSubtitle(new Uint8Array([])), { text: '', encoding: 'utf-8' });
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', () => {
    // "café déjà" as a Western Windows editor saves it: é is 0xE9, à is 0xE0.
    const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x64, 0xe9, 0x6a, 0xe0]);
    assert.deepEqual(decodeSubtitle(bytes), { text: 'café déjà', encoding: 'windows-1252' });
  });

  it('reads the Windows-1252 punctuation in 0x80..0x9F, not Latin-1 control characters', () => {
    // “It’s 5 €…” — curly quotes, apostrophe, euro sign and ellipsis.
    const bytes = new Uint8Array([0x93, 0x49, 0x74, 0x92, 0x73, 0x20, 0x35, 0x20, 0x80, 0x85, 0x94]);
    assert.deepEqual(decodeSubtitle(bytes), { text: '\u201CIt\u2019s 5 \u20AC\u2026\u201D', encoding: 'windows-1252' });
  });

  it("reads a legacy file in its language's code page, the language coming from the file's name", () => {
    // Each line as that language's Windows code page (or national encoding) stores it, byte by byte.
    const rows: Array<[language: string, bytes: number[], text: string, encoding: string]> = [
      ['ru', [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2], 'Привет', 'windows-1251'],
      ['pl', [0xaf, 0xf3, 0xb3, 0x74, 0x79], 'Żółty', 'windows-1250'],
      ['sr-Latn', [0x9a, 0x74, 0x6f], 'što', 'windows-1250'],
      ['el', [0xc1, 0xe8, 0xde, 0xed, 0xe1], 'Αθήνα', 'windows-1253'],
      ['tr', [0x49, 0xfe, 0xfd, 0x6b], 'Işık', 'windows-1254'],
      ['he', [0xf9, 0xec, 0xe5, 0xed], 'שלום', 'windows-1255'],
      ['ja', [0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd], 'こんにちは', 'shift_jis'],
      ['zh-Hant', [0xa4, 0xa4, 0xa4, 0xe5], '中文', 'big5'],
      ['zh-Hans', [0xd6, 0xd0, 0xce, 0xc4], '中文', 'gb18030'],
      ['fr', [0x63, 0x61, 0x66, 0xe9], 'café', 'windows-1252'],
      ['pt-BR', [0x6e, 0xe3, 0x6f], 'não', 'windows-1252'],
    ];
    for (const [language, bytes, text, encoding] of rows) {
      assert.deepEqual(decodeSubtitle(new Uint8Array(bytes), language), { text, encoding }, language);
    }
    // UTF-8 is UTF-8 whatever the name says.
    assert.deepEqual(decodeSubtitle(new Uint8Array(utf8('Привет')), 'ru'), { text: 'Привет', encoding: 'utf-8' });
  });

  it('without a language, text made mostly of high bytes is read as Cyrillic, Western text as Windows-1252', () => {
    const russian = [0x31, 0x0a, 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x2c, 0x20, 0xec, 0xe8, 0xf0];
    assert.deepEqual(decodeSubtitle(new Uint8Array(russian)), { text: '1\nПривет, мир', encoding: 'windows-1251' });
    assert.equal(decodeSubtitle(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x64, 0xe9, 0x6a, 0xe0])).encoding, 'windows-1252');
  });

  it('reads UTF-16 LE and BE with a byte order mark and drops the mark', () => {
    assert.deepEqual(decodeSubtitle(new Uint8Array([0xff, 0xfe, ...utf16(SRT, 'le')])), { text: SRT, encoding: 'utf-16le' });
    assert.deepEqual(decodeSubtitle(new Uint8Array([0xfe, 0xff, ...utf16(SRT, 'be')])), { text: SRT, encoding: 'utf-16be' });
  });

  it('guesses UTF-16 LE and BE without a mark from where the NUL bytes sit', () => {
    assert.deepEqual(decodeSubtitle(new Uint8Array(utf16(SRT, 'le'))), { text: SRT, encoding: 'utf-16le' });
    assert.deepEqual(decodeSubtitle(new Uint8Array(utf16(SRT, 'be'))), { text: SRT, encoding: 'utf-16be' });
  });

  it('guesses UTF-16 for mostly non-Latin text, whose timings are still ASCII', () => {
    const japanese = '1\n00:00:01,000 --> 00:00:02,000\n千と千尋の神隠し\n';
    assert.deepEqual(decodeSubtitle(new Uint8Array(utf16(japanese, 'le'))), { text: japanese, encoding: 'utf-16le' });
  });

  it('caps subtitle files at 10 MiB', () => {
    assert.equal(MAX_SUBTITLE_BYTES, 10 * 1024 * 1024);
  });
});
