// Which video a subtitle file beside it belongs to, and what its name says about it. The
// conventions are Jellyfin's and Kodi's: the video's base name, then dot-separated tokens for
// the language, flags ("forced", "sdh", "default") and a free title ("Commentary"), in any order.
import { languageTag } from '../text/languages';
import { lastSegment, splitExtension } from './path';

export type SubtitleFileFormat = 'srt' | 'vtt' | 'ass' | 'ssa' | 'sub' | 'idx' | 'sup';

export interface SubtitleName {
  format: SubtitleFileFormat;
  /** srt, vtt, ass, ssa. idx/sub (VobSub) and sup (PGS) are pictures and must be burned in. */
  textBased: boolean;
  /** BCP 47; null when the name does not say. */
  language: string | null;
  /** Only for foreign-language parts of the film ("forced", "foreign"). */
  forced: boolean;
  default: boolean;
  /** SDH / CC / HI: sound effects and speakers too. */
  hearingImpaired: boolean;
  /** The words left over, space separated: "Commentary", "Director's Commentary". */
  title: string | null;
}

/** By extension (a Map, so an extension such as "constructor" finds nothing). */
const FORMATS: ReadonlyMap<string, SubtitleFileFormat> = new Map([
  ['srt', 'srt'],
  ['vtt', 'vtt'],
  ['ass', 'ass'],
  ['ssa', 'ssa'],
  ['sub', 'sub'],
  ['idx', 'idx'],
  ['sup', 'sup'],
]);

/** Lowercase, without the dot, as lib/naming/path.ts splits them (and as VIDEO_EXTENSIONS are). */
export const SUBTITLE_EXTENSIONS: ReadonlySet<string> = new Set(FORMATS.keys());

const TEXT_FORMATS: ReadonlySet<SubtitleFileFormat> = new Set<SubtitleFileFormat>(['srt', 'vtt', 'ass', 'ssa']);

const FORCED = new Set(['forced', 'foreign']);
const DEFAULT = new Set(['default']);
const HEARING_IMPAIRED = new Set(['sdh', 'cc', 'hoh']);

/** Between words. '-' and '_' are not here: they also join "pt-BR" or "pt_BR" (see `tokens`). */
const WORD_SEP = /[.\s[\](){}]+/;
const CHAR_SEP = /[.\s[\](){}_-]/;

/** A word that is a whole tag ("pt_BR", "zh-Hant", "es-419") stays one token; any other is
 * split on '-' and '_' too ("2_English", "English-SDH"). */
const tokens = (s: string): string[] =>
  s
    .split(WORD_SEP)
    .flatMap((word) => (languageTag(word) ? [word] : word.split(/[-_]+/)))
    .filter((t) => t !== '');

/**
 * Which of a folder's videos a subtitle file's name carries: the longest base name (keys folded
 * as `foldName` does) that starts it, followed by a separator or nothing, as parseSubtitleName
 * reads it. null when none does, or when it is not a subtitle. One lookup per separator in the
 * name, so a folder of thousands of films is read in one pass, not files times videos.
 */
export function subtitleOwner<T>(fileName: string, videos: ReadonlyMap<string, T>): T | null {
  const { base, ext } = splitExtension(foldName(lastSegment(fileName)));
  if (!FORMATS.has(ext)) return null;
  for (let i = base.length; i > 0; i--) {
    if (i !== base.length && !CHAR_SEP.test(base.charAt(i))) continue;
    const owner = videos.get(base.slice(0, i));
    if (owner !== undefined) return owner;
  }
  return null;
}

/** How names are compared: composed (macOS hands out NFD) and lowercase. */
export const foldName = (name: string): string => name.normalize('NFC').toLowerCase();

/**
 * Whether `fileName` (a subtitle, its folder optional) belongs to the video whose base name is
 * `videoBase`, and what the rest of its name says. null when it is not this video's subtitle or
 * not a subtitle at all. The video's base must start the name, in any case, followed by a
 * separator or nothing; in a `Subs/` folder (`inSubsFolder`) the name may be anything and all of
 * it is read ("2_English"). Numbers alone ("2") are track orders and are ignored.
 */
export function parseSubtitleName(fileName: string, videoBase: string, opts: { inSubsFolder?: boolean } = {}): SubtitleName | null {
  // macOS hands out NFD names: compare composed forms.
  const { base, ext } = splitExtension(lastSegment(fileName.normalize('NFC')));
  const format = FORMATS.get(ext);
  if (!format) return null;

  const video = videoBase.normalize('NFC');
  const head = base.slice(0, video.length);
  let rest: string;
  const endsAtSeparator = base.length === video.length || CHAR_SEP.test(base.charAt(video.length));
  if (video !== '' && head.toLowerCase() === video.toLowerCase() && endsAtSeparator) {
    rest = base.slice(video.length);
  } else if (opts.inSubsFolder) {
    rest = base;
  } else {
    return null;
  }

  const result: SubtitleName = {
    format,
    textBased: TEXT_FORMATS.has(format),
    language: null,
    forced: false,
    default: false,
    hearingImpaired: false,
    title: null,
  };
  // The last language wins (flags follow it, a title comes first): "Making of It.en" is English.
  // Earlier language-looking words go back into the title.
  const words: string[] = [];
  let languageWord: number | null = null;
  for (const token of tokens(rest)) {
    const lower = token.toLowerCase();
    if (/^\d+$/.test(token)) continue;
    if (FORCED.has(lower)) result.forced = true;
    else if (DEFAULT.has(lower)) result.default = true;
    else if (HEARING_IMPAIRED.has(lower)) result.hearingImpaired = true;
    // "hi" after a language is hearing impaired ("en.hi"); alone it is Hindi.
    else if (lower === 'hi' && result.language !== null) result.hearingImpaired = true;
    else {
      const tag = languageTag(token);
      if (tag) {
        result.language = tag;
        languageWord = words.length;
      }
      words.push(token);
    }
  }
  const title = words.filter((_, i) => i !== languageWord).join(' ');
  result.title = title === '' ? null : title;
  return result;
}
