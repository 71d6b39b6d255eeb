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
