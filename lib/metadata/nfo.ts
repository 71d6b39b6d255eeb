// Kodi-style NFO files beside a video: the XML Kodi, Jellyfin and tools such as tinyMediaManager
// write (<movie>, <tvshow>, <episodedetails>, several of those for a multi-episode file), a link
// to the title's page (a "parsing NFO"), or XML followed by a link. Pure: text or bytes in, a
// result out. It never throws; a file it cannot use is a failure with a short reason to log.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fail, type Failure } from '../naming/types';
import { hasAnyId, mergeIds, type ProviderIds } from './ids';
import { idsFromLinks, type LinkIds, type TmdbType } from './nfo-links';
import {
  children,
  isNode,
  readEpisodeFields,
  readTitleFields,
  type NfoEpisodeFields,
  type NfoTitleFields,
  type XmlNode,
} from './nfo-fields';

export type { NfoEpisodeFields, NfoTitleFields } from './nfo-fields';
export type { LinkIds, TmdbType } from './nfo-links';

/**
 * Real NFOs are a few KB (a long cast list reaches a few hundred). A bigger file is something
 * else named .nfo, and parsing it would only cost memory and time during a scan.
 */
export const MAX_NFO_BYTES = 1024 * 1024;

export type NfoResult =
  | { ok: true; kind: 'movie' | 'tvshow'; fields: NfoTitleFields }
  /** One entry per `<episodedetails>`, in file order; see `pickEpisode`. */
  | { ok: true; kind: 'episode'; fields: NfoEpisodeFields[] }
  /** No usable XML, only links to the title's page. */
  | { ok: true; kind: 'link'; fields: LinkIds }
  | Failure;

type Root = 'movie' | 'tvshow' | 'episodedetails';

const ROOTS: readonly Root[] = ['movie', 'tvshow', 'episodedetails'];
// Several root elements are not a well-formed document, yet a multi-episode NFO is exactly
// that, so the XML is parsed inside a root of our own.
const WRAPPER = 'nfo-document';
const XML_DECLARATION = /^<\?xml\s[^>]*\?>/;
const SEVERAL_ROOTS = /multiple possible root/i;
// Entity declarations are how billion-laughs and external-entity reads start, and no NFO needs
// one, so a file with a DOCTYPE is refused before any parser sees it.
const DOCTYPE = /<!(?:DOCTYPE|ENTITY)/i;

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false, // ids such as "0133093" stay strings; fields parse their own numbers
  parseAttributeValue: false,
  trimValues: true,
  // The five XML entities and character references ("&#233;"); the HTML names this also adds
  // ("&nbsp;") are harmless. Nothing is ever declared (DOCTYPE is refused above).
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Hand-written files say <Title> and Type="TMDB" too.
  transformTagName: (name) => name.toLowerCase(),
  transformAttributeName: (name) => name.toLowerCase(),
});

export function parseNfo(content: string | Uint8Array): NfoResult {
  const read = readText(content);
  if (typeof read !== 'string') return read;
  const start = read.indexOf('<');
  const end = read.lastIndexOf('>');
  if (start === -1 || end < start) return linksOnly(read, 'neither XML nor a provider link');
  const document = readDocument(read.slice(start, end + 1));
  // Broken XML with a link beside it still names the title, as Kodi reads it.
  if (!document.ok) return linksOnly(read, document.reason);
  return withLinks(document, idsFromLinks(read.slice(0, start) + '\n' + read.slice(end + 1)));
}

/** The entry of a multi-episode NFO for one episode; a file of one entry applies whole. */
export function pickEpisode(entries: readonly NfoEpisodeFields[], season: number, episode: number): NfoEpisodeFields | undefined {
  if (entries.length === 1) return entries[0];
  return entries.find((entry) => entry.season === season && entry.episode === episode);
}

function readText(content: string | Uint8Array): string | Failure {
  // A UTF-16 unit is at least one byte in UTF-8: a long string is too big before it is measured.
  const tooBig =
    typeof content === 'string'
      ? content.length > MAX_NFO_BYTES || Buffer.byteLength(content, 'utf8') > MAX_NFO_BYTES
      : content.byteLength > MAX_NFO_BYTES;
  if (tooBig) return fail(`over ${MAX_NFO_BYTES} bytes, too big for an NFO`);
  const text = typeof content === 'string' ? content.replace(/^\uFEFF/, '') : decode(content);
  if (looksBinary(text)) return fail('binary data, not text');
  const trimmed = text.trim();
  return trimmed === '' ? fail('empty file') : trimmed;
}

/**
 * A byte order mark names UTF-16 (what Windows editors call "Unicode"); anything else is read as
 * UTF-8, invalid bytes becoming U+FFFD. TextDecoder drops the mark itself.
 */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

// Control characters other than tab, line feed and carriage return. A few are tolerated (old DOS
// text files end in a ^Z, release NFOs hold odd bytes); a NUL never occurs in text.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/gu;

function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  return (text.match(CONTROL)?.length ?? 0) > Math.max(4, text.length / 100);
}

function linksOnly(text: string, reason: string): NfoResult {
  const links = idsFromLinks(text);
  return hasAnyId(links.ids) ? { ok: true, kind: 'link', fields: links } : fail(reason);
}

function readDocument(xml: string): NfoResult {
  if (DOCTYPE.test(xml)) return fail('has a DOCTYPE or entity declaration, which NFOs never need');
  const wrapped = `<${WRAPPER}>${xml.replace(XML_DECLARATION, '')}</${WRAPPER}>`;
  // The file as written first, so a reason's line and column are the file's own; the wrapped
  // form only when several roots were the sole complaint.
  let valid = XMLValidator.validate(xml);
  if (valid !== true && valid.err.code === 'InvalidXml' && SEVERAL_ROOTS.test(valid.err.msg)) {
    valid = XMLValidator.validate(wrapped);
  }
  if (valid !== true) return fail(`bad XML: ${valid.err.msg} (line ${valid.err.line})`);
  let parsed: unknown;
  try {
    parsed = parser.parse(wrapped);
  } catch (error) {
    // The validator passed, so this is the parser's own refusal (say, an element named
    // "constructor", which it will not turn into an object key).
    return fail(`bad XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const top = isNode(parsed) ? parsed[WRAPPER] : undefined;
  return readRoots(isNode(top) ? top : {});
}

function readRoots(top: XmlNode): NfoResult {
  const names = Object.keys(top).filter((key) => !key.startsWith('#') && !key.startsWith('@_'));
  const root = names[0];
  if (root === undefined) return fail('no XML element');
  if (names.length > 1) return fail(`several root elements: <${names.join('>, <')}>`);
  if (!isRoot(root)) return fail(`root <${root}> is not <${ROOTS.join('>, <')}>`);
  const elements = children(top, root).map((element) => (isNode(element) ? element : {}));
  if (root === 'episodedetails') return { ok: true, kind: 'episode', fields: elements.map(readEpisodeFields) };
  if (elements.length > 1) return fail(`several <${root}> elements`);
  return { ok: true, kind: root, fields: readTitleFields(elements[0] ?? {}, root) };
}

function isRoot(name: string): name is Root {
  return (ROOTS as readonly string[]).includes(name);
}

/**
 * A link after the XML fills ids the XML does not give. A TMDB link to the other collection
 * (a /tv/ page under <movie>) is dropped: its number would name another title. Episode files
 * take none, since a link there may be the show's page rather than the episode's.
 */
function withLinks(document: NfoResult, links: LinkIds): NfoResult {
  if (!document.ok || document.kind === 'episode' || document.kind === 'link') return document;
  const wanted: TmdbType = document.kind === 'movie' ? 'movie' : 'tv';
  const extra: ProviderIds = { ...links.ids };
  if (links.tmdbType !== wanted) delete extra.tmdb;
  return { ...document, fields: { ...document.fields, ids: mergeIds(document.fields.ids, extra) } };
}
