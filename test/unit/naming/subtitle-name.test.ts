import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { languageLabel, languageTag } from '../../../lib/text/languages';
import { SUBTITLE_EXTENSIONS, foldName, parseSubtitleName, subtitleOwner, type SubtitleName } from '../../../lib/naming/subtitle-name';

const MOVIE = 'Movie (2001)';

/** A text subtitle with only the fields a row cares about changed. */
const srt = (fields: Partial<SubtitleName> = {}): SubtitleName => ({
  format: 'srt',
  textBased: true,
  language: null,
  forced: false,
  default: false,
  hearingImpaired: false,
  title: null,
  ...fields,
});
const en = (fields: Partial<SubtitleName> = {}) => srt({ language: 'en', ...fields });

type Input = [fileName: string, videoBase: string, inSubsFolder?: boolean];
type Row = [input: Input, expected: SubtitleName | null, why: string];

const rows: Row[] = [
  // Jellyfin-style names beside a movie.
  [['Movie (2001).srt', MOVIE], srt(), 'the bare video name: no language'],
  [['Movie (2001).en.srt', MOVIE], en(), 'ISO 639-1'],
  [['Movie (2001).eng.srt', MOVIE], en(), 'ISO 639-2'],
  [['Movie (2001).English.srt', MOVIE], en(), 'an English name'],
  [['movie (2001).ENGLISH.srt', MOVIE], en(), 'the base and the language in any case'],
  [['Movie (2001).fr.forced.srt', MOVIE], srt({ language: 'fr', forced: true }), 'forced'],
  [['Movie (2001).en.default.srt', MOVIE], en({ default: true }), 'default'],
  [['Movie (2001).en.sdh.srt', MOVIE], en({ hearingImpaired: true }), 'SDH'],
  [['Movie (2001).en.cc.srt', MOVIE], en({ hearingImpaired: true }), 'closed captions'],
  [['Movie (2001).en.hi.srt', MOVIE], en({ hearingImpaired: true }), '"hi" after a language is hearing impaired'],
  [['Movie (2001).hi.srt', MOVIE], srt({ language: 'hi' }), '"hi" alone is Hindi'],
  [['Movie (2001).hindi.sdh.srt', MOVIE], srt({ language: 'hi', hearingImpaired: true }), 'Hindi, hearing impaired'],
  [['Movie (2001).pt-BR.srt', MOVIE], srt({ language: 'pt-BR' }), 'a regional tag'],
  [['Movie (2001).pt_BR.srt', MOVIE], srt({ language: 'pt-BR' }), 'a regional tag with an underscore'],
  [['Movie (2001).pt.srt', MOVIE], srt({ language: 'pt' }), 'plain Portuguese stays plain'],
  [['Movie (2001).Brazilian.srt', MOVIE], srt({ language: 'pt-BR' }), 'Brazilian'],
  [['Movie (2001).pob.srt', MOVIE], srt({ language: 'pt-BR' }), "OpenSubtitles' code for Brazilian"],
  [['Movie (2001).zh-Hant.srt', MOVIE], srt({ language: 'zh-Hant' }), 'a script tag'],
  [['Movie (2001).cht.srt', MOVIE], srt({ language: 'zh-Hant' }), 'cht'],
  [['Movie (2001).chs.srt', MOVIE], srt({ language: 'zh-Hans' }), 'chs'],
  [['Movie (2001).zh-TW.srt', MOVIE], srt({ language: 'zh-Hant' }), 'Taiwan writes Traditional'],
  [['Movie (2001).zh-HK.srt', MOVIE], srt({ language: 'zh-HK' }), 'Hong Kong kept'],
  [['Movie (2001).Cantonese.srt', MOVIE], srt({ language: 'zh-HK' }), 'Cantonese is zh-HK'],
  [['Movie (2001).sr-Latn.srt', MOVIE], srt({ language: 'sr-Latn' }), 'Serbian in Latin script kept'],
  [['Movie (2001).sr-Cyrl.forced.srt', MOVIE], srt({ language: 'sr-Cyrl', forced: true }), 'Serbian in Cyrillic, forced'],
  [['Movie (2001).en.forced.sdh.srt', MOVIE], en({ forced: true, hearingImpaired: true }), 'two flags'],
  [['Movie (2001).forced.en.srt', MOVIE], en({ forced: true }), 'a flag before the language'],
  [['Movie (2001).foreign.srt', MOVIE], srt({ forced: true }), '"foreign" means forced'],
  [['Movie (2001).en[forced].srt', MOVIE], en({ forced: true }), 'a flag in brackets'],
  [['Movie (2001).English (SDH).srt', MOVIE], en({ hearingImpaired: true }), 'a flag in parentheses'],
  [['Movie (2001).English-SDH.srt', MOVIE], en({ hearingImpaired: true }), 'a flag after a dash'],
  [['Movie (2001).2.en.srt', MOVIE], en(), 'a number before the language is ignored'],
  [['Movie (2001).en.2.srt', MOVIE], en(), 'a number after the language is ignored'],
  [["Movie (2001).Director's Commentary.en.srt", MOVIE], en({ title: "Director's Commentary" }), 'a title'],
  [['Movie (2001).en.Commentary.srt', MOVIE], en({ title: 'Commentary' }), 'a title after the language'],
  [['Movie (2001).Commentary.srt', MOVIE], srt({ title: 'Commentary' }), 'a title and no language'],
  [
    ['Movie (2001).Making of It.en.srt', MOVIE],
    en({ title: 'Making of It' }),
    'the last language wins; an earlier look-alike stays in the title',
  ],
  [['Movie (2001).en.vtt', MOVIE], en({ format: 'vtt' }), 'WebVTT'],
  [['Movie (2001).ja.ass', MOVIE], srt({ format: 'ass', language: 'ja' }), 'ASS'],
  [['Movie (2001).ko.ssa', MOVIE], srt({ format: 'ssa', language: 'ko' }), 'SSA'],
  [['Movie (2001).idx', MOVIE], srt({ format: 'idx', textBased: false }), 'VobSub index'],
  [['Movie (2001).sub', MOVIE], srt({ format: 'sub', textBased: false }), 'VobSub pictures'],
  [['Movie (2001).en.sup', MOVIE], en({ format: 'sup', textBased: false }), 'PGS'],
  [['Movie (2001).en.SRT', MOVIE], en(), 'an upper case extension'],
  [['Movie (2001).En.Srt', MOVIE], en(), 'a mixed case extension'],
  [['Movie.2001.1080p.BluRay.en.srt', 'Movie.2001.1080p.BluRay'], en(), 'a release-style base'],
  [['Movie (2001)/Movie (2001).de.srt', MOVIE], srt({ language: 'de' }), 'a folder before the name is ignored'],
  // Kodi-style names.
  [['Movie.en.forced.srt', 'Movie'], en({ forced: true }), 'Kodi forced'],
  [['Movie.eng.hi.srt', 'Movie'], en({ hearingImpaired: true }), 'Kodi hearing impaired'],
  [['Movie.chi.srt', 'Movie'], srt({ language: 'zh' }), 'ISO 639-2/B Chinese'],
  [['Movie.zho.srt', 'Movie'], srt({ language: 'zh' }), 'ISO 639-2/T Chinese'],
  [['Movie.zh-CN.srt', 'Movie'], srt({ language: 'zh-Hans' }), 'mainland China writes Simplified'],
  [['Movie.es-419.srt', 'Movie'], srt({ language: 'es-419' }), 'Latin American Spanish'],
  [['Movie.es-LA.srt', 'Movie'], srt({ language: 'es-419' }), 'es-LA'],
  [['Movie.Latino.srt', 'Movie'], srt({ language: 'es-419' }), 'Latino'],
  [['Movie.Castilian.srt', 'Movie'], srt({ language: 'es' }), 'Castilian is Spanish'],
  [['Movie.Français.srt', 'Movie'], srt({ language: 'fr' }), 'a native name with an accent'],
  [['Movie.Francais.srt', 'Movie'], srt({ language: 'fr' }), 'the same without it'],
  [['Movie.Franc\u0327ais.srt', 'Movie'], srt({ language: 'fr' }), 'an NFD name'],
  [['Movie.DEU.srt', 'Movie'], srt({ language: 'de' }), 'ISO 639-2/T German in capitals'],
  [['Movie.ger.srt', 'Movie'], srt({ language: 'de' }), 'ISO 639-2/B German'],
  [['Movie.nld.srt', 'Movie'], srt({ language: 'nl' }), 'ISO 639-2/T Dutch'],
  [['Movie.ptbr.srt', 'Movie'], srt({ language: 'pt-BR' }), 'ptbr'],
  [['Movie.Deutsch.srt', 'Movie'], srt({ language: 'de' }), 'Deutsch'],
  [['Movie.Español.srt', 'Movie'], srt({ language: 'es' }), 'Español'],
  [['Movie.Čeština.srt', 'Movie'], srt({ language: 'cs' }), 'Čeština'],
  [['Movie.cze.srt', 'Movie'], srt({ language: 'cs' }), 'ISO 639-2/B Czech'],
  [['Movie.Русский.srt', 'Movie'], srt({ language: 'ru' }), 'Russian in Cyrillic'],
  [['Movie.日本語.srt', 'Movie'], srt({ language: 'ja' }), 'Japanese in Japanese'],
  [['Movie.한국어.srt', 'Movie'], srt({ language: 'ko' }), 'Korean in Hangul'],
  [['Movie.中文.srt', 'Movie'], srt({ language: 'zh' }), 'Chinese in Chinese'],
  [['Movie.Farsi.srt', 'Movie'], srt({ language: 'fa' }), 'Farsi'],
  [['Movie.per.srt', 'Movie'], srt({ language: 'fa' }), 'ISO 639-2/B Persian'],
  [['Movie.norsk.srt', 'Movie'], srt({ language: 'no' }), 'Norwegian'],
  [['Movie.nb.srt', 'Movie'], srt({ language: 'nb' }), 'Bokmål kept apart'],
  [['Movie.Svenska.srt', 'Movie'], srt({ language: 'sv' }), 'Swedish'],
  [['Movie.he.srt', 'Movie'], srt({ language: 'he' }), 'Hebrew'],
  [['Movie.fr-CA.srt', 'Movie'], srt({ language: 'fr-CA' }), 'a known region kept'],
  [['Movie.en-cc.srt', 'Movie'], en({ hearingImpaired: true }), '"cc" after a dash is captions, not the Cocos Islands'],
  // Subs/ folders.
  [['2_English.srt', MOVIE, true], en(), 'Subs/: a leading number is ignored'],
  [['English.srt', MOVIE, true], en(), 'Subs/: the language alone'],
  [['3_French.forced.srt', MOVIE, true], srt({ language: 'fr', forced: true }), 'Subs/: number, language, flag'],
  [['Movie (2001).it.srt', MOVIE, true], srt({ language: 'it' }), "Subs/: the video's name is still taken off"],
  [['English.srt', MOVIE], null, 'outside Subs/ the name must start with the video'],
  // Episodes.
  [['Show - S01E02.en.srt', 'Show - S01E02'], en(), 'an episode'],
  [['Show - S01E02 - Title.srt', 'Show - S01E03 - Other'], null, 'another episode'],
  [['Show - S01E12.en.srt', 'Show - S01E1'], null, 'a longer episode number is another episode'],
  // Not this video's, or not a subtitle.
  [['Other Movie (2001).en.srt', MOVIE], null, 'another video'],
  [['Movie (2001)x.en.srt', MOVIE], null, 'the base must end at a separator'],
  [['Movie (2001).en.txt', MOVIE], null, 'not a subtitle extension'],
  [['Movie (2001).mkv', MOVIE], null, 'the video itself'],
  [['Movie (2001).en.nfo', MOVIE], null, 'metadata'],
  [['Movie (2001)', MOVIE], null, 'no extension'],
  [['.srt', MOVIE, true], null, 'a hidden file with no name'],
  [
    ['.hidden.srt', MOVIE, true],
    srt({ title: 'hidden' }),
    'a hidden file with a name is a subtitle by its name (the scan leaves hidden files out before)',
  ],
  [['Movie (2001).en.', MOVIE], null, 'a name ending in a dot has no extension'],
  [['Movie (2001).en.constructor', MOVIE], null, 'an extension that names a property of every object is no format'],
  [['Movie (2001).en.SRT', MOVIE], en(), 'the extension in any case'],
];

describe('parseSubtitleName', () => {
  for (const [[fileName, videoBase, inSubsFolder], expected, why] of rows) {
    it(`${JSON.stringify(fileName)} for ${JSON.stringify(videoBase)}${inSubsFolder ? ' in Subs/' : ''}: ${why}`, () =>
      assert.deepEqual(parseSubtitleName(fileName, videoBase, inSubsFolder ? { inSubsFolder } : undefined), expected));
  }
});

describe('SUBTITLE_EXTENSIONS', () => {
  it('lists every format, lower case without the dot, as VIDEO_EXTENSIONS does', () =>
    assert.deepEqual([...SUBTITLE_EXTENSIONS].sort(), ['ass', 'idx', 'srt', 'ssa', 'sub', 'sup', 'vtt']));
});

describe('languageTag', () => {
  const tags: [token: string, expected: string | null, why: string][] = [
    ['EN', 'en', 'case'],
    ['simplified', 'zh-Hans', 'Simplified'],
    ['Traditional', 'zh-Hant', 'Traditional'],
    ['Mandarin', 'zh', 'Mandarin is Chinese'],
    ['sr_latn', 'sr-Latn', 'a script, its case restored'],
    ['zh-Hant-TW', 'zh-Hant-TW', 'script and region'],
    ['en-hi', null, 'not a region'],
    ['forced', null, 'a flag'],
    ['sdh', null, 'a flag'],
    ['xx', null, 'unknown'],
    ['', null, 'empty'],
  ];
  for (const [token, expected, why] of tags) {
    it(`${JSON.stringify(token)}: ${why}`, () => assert.equal(languageTag(token), expected));
  }
});

describe('languageLabel', () => {
  it('a region form, in English', () => assert.equal(languageLabel('pt-BR'), 'Brazilian Portuguese'));
  it('Latin American Spanish', () => assert.equal(languageLabel('es-419'), 'Latin American Spanish'));
  it('a script form', () => assert.equal(languageLabel('zh-Hant'), 'Traditional Chinese'));
  it('in another display language', () => assert.equal(languageLabel('fr', 'fr'), 'français'));
  it('an unknown language falls back to its tag', () => assert.equal(languageLabel('qaa'), 'qaa'));
  it('a malformed tag falls back to itself', () => assert.equal(languageLabel('not a tag'), 'not a tag'));
  it('a malformed display locale falls back to the tag', () => assert.equal(languageLabel('en', '!!'), 'en'));
});

describe('subtitleOwner', () => {
  const videos = new Map(['Heat', 'Heat 2', 'Amélie (2001)', 'Show.S01E01'].map((base) => [foldName(base), base]));
  const rows: Array<[file: string, owner: string | null]> = [
    ['Heat.en.srt', 'Heat'],
    ['Heat 2.en.srt', 'Heat 2'],
    ['heat 2.srt', 'Heat 2'],
    ['Heat 2 Commentary.srt', 'Heat 2'],
    ['Heat.srt', 'Heat'],
    ['Heatwave.en.srt', null],
    ['Ame\u0301lie (2001).fr.srt', 'Amélie (2001)'],
    ['Show.S01E01_English.ass', 'Show.S01E01'],
    ['Show.S01E012.en.srt', null],
    ['Heat.en.nfo', null],
    ['Subs/Heat.de.srt', 'Heat'],
    ['.srt', null],
    ['Heat.', null],
    ['Heat.constructor', null],
  ];
  for (const [file, owner] of rows) {
    it(`${file} -> ${owner}`, () => {
      assert.equal(subtitleOwner(file, videos), owner);
      // The same answer parseSubtitleName gives for that video.
      if (owner !== null) assert.notEqual(parseSubtitleName(file, owner), null);
    });
  }
});
