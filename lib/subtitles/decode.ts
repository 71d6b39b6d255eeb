// Subtitle files carry no declared encoding: a byte order mark when the writer bothered, otherwise
// whatever the tool or the person's system used. Most are UTF-8 today; some Windows tools save
// UTF-16; older files are in the legacy code page of their language (Windows-1252 for Western
// languages, 1251 for Russian, 1250 for Polish or Czech, Shift_JIS for Japanese ...). The
// language the file's name gives picks that code page; without one, text made mostly of high
// bytes is read as Cyrillic (the commonest non-Latin case), anything else as Windows-1252.
// Decoding never fails: the last guess maps every byte to some character.

/** The encodings a subtitle file is read as. */
export type SubtitleEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | LegacyEncoding;

type LegacyEncoding =
  | 'windows-1250'
  | 'windows-1251'
  | 'windows-1252'
  | 'windows-1253'
  | 'windows-1254'
  | 'windows-1255'
  | 'windows-1256'
  | 'windows-1257'
  | 'windows-1258'
  | 'windows-874'
  | 'shift_jis'
  | 'gb18030'
  | 'big5'
  | 'euc-kr';

/** The code page Windows used for a language (its primary subtag; Chinese by script). */
const LEGACY_BY_LANGUAGE: Readonly<Record<string, LegacyEncoding>> = {
  ...Object.fromEntries(['pl', 'cs', 'sk', 'hu', 'ro', 'hr', 'sl', 'bs', 'sq'].map((l) => [l, 'windows-1250'])),
  ...Object.fromEntries(['ru', 'uk', 'be', 'bg', 'mk', 'sr', 'kk', 'mn'].map((l) => [l, 'windows-1251'])),
  el: 'windows-1253',
  tr: 'windows-1254',
  az: 'windows-1254',
  he: 'windows-1255',
  yi: 'windows-1255',
  ar: 'windows-1256',
  fa: 'windows-1256',
  ur: 'windows-1256',
  lt: 'windows-1257',
  lv: 'windows-1257',
  et: 'windows-1257',
  vi: 'windows-1258',
  th: 'windows-874',
  ja: 'shift_jis',
  ko: 'euc-kr',
  zh: 'gb18030',
  'zh-Hant': 'big5',
  'zh-TW': 'big5',
  'zh-HK': 'big5',
};

const legacyFor = (language: string | null | undefined): LegacyEncoding | undefined => {
  if (!language) return undefined;
  const [primary = '', second = ''] = language.split('-');
  // Serbian in Latin script was written in 1250, like Croatian.
  if (primary === 'sr' && second === 'Latn') return 'windows-1250';
  return LEGACY_BY_LANGUAGE[`${primary}-${second}`] ?? LEGACY_BY_LANGUAGE[primary];
};

/** Cyrillic in 1251 puts nearly every letter above 0xBF; Western text in 1252 has a few accents among ASCII letters. */
const looksCyrillic = (bytes: Uint8Array): boolean => {
  let high = 0;
  let ascii = 0;
  for (let i = 0; i < Math.min(bytes.length, 64 * 1024); i++) {
    const b = bytes[i]!;
    if (b >= 0xc0) high++;
    else if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) ascii++;
  }
  return high > ascii;
};

export interface DecodedSubtitle {
  /** The file's text, without its byte order mark. */
  text: string;
  /** What the bytes were read as. */
  encoding: SubtitleEncoding;
}

/**
 * The largest file taken as a subtitle, 10 MiB. A feature-length track is a few hundred KiB even
 * in UTF-16 with heavy styling, so anything bigger is a misnamed file; callers refuse it rather
 * than decode it.
 */
export const MAX_SUBTITLE_BYTES = 10 * 2 ** 20;

// Enough of the file to tell UTF-16 from a byte-wide encoding: timings alone fill the first lines.
const SNIFF_BYTES = 4096;
// Latin-script UTF-16 has a NUL in nearly every pair; CJK text has fewer, but the timings and
// numbering are ASCII. A byte-wide text file has none at all.
const NUL_SHARE = 0.25;

// Node's windows-1252 decoder has read 0x80..0x9F as the C1 controls of Latin-1 in some releases,
// which would turn the curly quotes and dashes these files are full of into invisible characters.
// Mapping them afterwards is right whichever way the decoder behaves. The five bytes the code page
// leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) stay as they are.
const CP1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';
const C1_CONTROL = /[\u0080-\u009F]/g;

/** The file's text; `language` (BCP 47, from its name) picks the legacy code page when it is not UTF-8 or UTF-16. */
export function decodeSubtitle(bytes: Uint8Array, language?: string | null): DecodedSubtitle {
  if (startsWith(bytes, 0xef, 0xbb, 0xbf)) return decoded(bytes.subarray(3), 'utf-8');
  if (startsWith(bytes, 0xff, 0xfe)) return decoded(bytes.subarray(2), 'utf-16le');
  if (startsWith(bytes, 0xfe, 0xff)) return decoded(bytes.subarray(2), 'utf-16be');

  const utf16 = guessUtf16(bytes);
  if (utf16) return decoded(bytes, utf16);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not valid UTF-8: a legacy code page.
    const legacy = legacyFor(language) ?? (looksCyrillic(bytes) ? 'windows-1251' : 'windows-1252');
    if (legacy !== 'windows-1252') return { text: new TextDecoder(legacy).decode(bytes), encoding: legacy };
    const text = new TextDecoder('windows-1252').decode(bytes);
    return { text: text.replace(C1_CONTROL, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c), encoding: 'windows-1252' };
  }
}

const startsWith = (bytes: Uint8Array, ...prefix: number[]): boolean =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);

// ignoreBOM: the mark has been cut off already, and a second one would be part of the text.
const decoded = (bytes: Uint8Array, encoding: SubtitleEncoding): DecodedSubtitle => ({
  text: new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes),
  encoding,
});

// ASCII in UTF-16 LE puts the NUL second in each pair (odd offsets), in BE first (even offsets).
function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(bytes.length, SNIFF_BYTES);
  const pairs = Math.floor(length / 2);
  if (pairs === 0) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  if (odd >= pairs * NUL_SHARE && odd > even * 4) return 'utf-16le';
  if (even >= pairs * NUL_SHARE && even > odd * 4) return 'utf-16be';
  return null;
}
