// Subtitles to WebVTT, the one text track format browsers play. External files come as SRT, ASS/SSA
// or WebVTT already; each is read into cues, then written out as WebVTT, shifted by an offset when
// the user has moved the track against the video. Readers are tolerant: files are written by hand,
// by rippers and by fansub tools, and one broken cue should cost that cue, never the whole track.

/** One timed piece of text. */
export interface Cue {
  startMs: number;
  endMs: number;
  /**
   * WebVTT cue text before escaping: lines joined by "\n", with only `<i>`, `<b>` and `<u>` (and
   * their end tags) as markup. Any other `&`, `<` or `>` is a literal character.
   */
  text: string;
}

export type SubtitleFormat = 'srt' | 'vtt' | 'ass' | 'ssa';

// [h:]m:s then a fraction after "," (SRT) or "." (WebVTT, ASS). The fraction is read as a
// fraction, so ASS centiseconds ("1.50") and short SRT milliseconds come out right.
const TIMESTAMP = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})[,.](\d{1,3})$/;
const TIME = String.raw`(?:\d+:)?\d{1,2}:\d{1,2}[,.]\d{1,3}`;
// Anything after the end time (SRT coordinates, WebVTT cue settings) is ignored.
const TIMING_LINE = new RegExp(String.raw`^\s*(${TIME})\s*-->\s*(${TIME})(?:\s.*)?$`);
const INDEX_LINE = /^\s*\d+\s*$/;
const LINE_BREAK = /\r\n|\r|\n/;
const BOM = /^\uFEFF/;

const KEPT_TAGS = new Set(['i', 'b', 'u']);
// SRT markup is loose HTML: a tag starts with a letter, so "a < b" and "<3" stay text.
const SRT_TAG = /<(\/?)\s*([a-zA-Z][a-zA-Z0-9]*)[^<>]*>/g;
// Many SRT files carry ASS positioning ({\an8}) that players without ASS support print as is.
const SRT_OVERRIDE = /\{\\[^}]*\}/g;
// In WebVTT a literal "<" is always escaped, so every <...> is a tag: classes (<i.loud>), voices
// (<v Anna>), timestamps (<00:00:01.000>).
const VTT_TAG = /<(\/?)([^\s>./]*)[^>]*>/g;
const VTT_ENTITY = /&(?:(amp|lt|gt|nbsp|lrm|rlm)|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  nbsp: '\u00A0',
  lrm: '\u200E',
  rlm: '\u200F',
};

export function parseSrt(text: string): Cue[] {
  const lines = text.replace(BOM, '').split(LINE_BREAK);
  const cues: Cue[] = [];
  let i = 0;
  while (i < lines.length) {
    // Look for the next timing line: index numbers, stray text and the lines of a cue whose
    // timing line did not parse are passed over.
    const timing = readTiming(lines[i]!);
    i++;
    if (!timing) continue;
    const body: string[] = [];
    // A cue ends at a blank line, or where the next cue plainly begins when the blank line is missing.
    while (i < lines.length && lines[i]!.trim() !== '' && !startsCue(lines, i)) body.push(lines[i++]!);
    const cueText = tidy(body.map((line) => keepTags(line.replace(SRT_OVERRIDE, ''), SRT_TAG)));
    if (timing.endMs > timing.startMs && cueText !== '') cues.push({ ...timing, text: cueText });
  }
  return cues;
}

const startsCue = (lines: readonly string[], i: number): boolean =>
  readTiming(lines[i]!) !== null || (INDEX_LINE.test(lines[i]!) && readTiming(lines[i + 1] ?? '') !== null);

export function parseVtt(text: string): Cue[] {
  // Cue text cannot hold a blank line, so blocks separated by blank lines are cues or headers.
  const blocks = text.replace(BOM, '').split(/(?:\r\n|\r|\n)(?:[ \t]*(?:\r\n|\r|\n))+/);
  const cues: Cue[] = [];
  blocks.forEach((block, index) => {
    let lines = block.split(LINE_BREAK);
    if (/^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/.test(lines[0]!)) return;
    // The header may carry metadata lines, and a careless writer may start the first cue with no
    // blank line after it.
    if (index === 0 && lines[0]!.startsWith('WEBVTT')) {
      const first = lines.findIndex((line) => line.includes('-->'));
      if (first < 0) return;
      lines = lines.slice(first);
    }
    // An optional cue id comes before the timing line.
    const at = lines[0]!.includes('-->') ? 0 : lines[1]?.includes('-->') ? 1 : -1;
    const timing = at < 0 ? null : readTiming(lines[at]!);
    if (!timing || timing.endMs <= timing.startMs) return;
    const cueText = tidy(lines.slice(at + 1).map((line) => decodeEntities(keepTags(line, VTT_TAG))));
    if (cueText !== '') cues.push({ ...timing, text: cueText });
  });
  return cues;
}

// The field order of a v4+ (ASS) event line when the file has no Format line; SSA's v4 order has
// Marked in place of Layer, so Start, End and Text sit at the same places.
const DEFAULT_ASS_FORMAT = ['layer', 'start', 'end', 'style', 'name', 'marginl', 'marginr', 'marginv', 'effect', 'text'];
const SECTION = /^\s*\[(.*)\]\s*$/;
const FIELD_LINE = /^\s*([A-Za-z]+)\s*:\s?(.*)$/;
// An override block, or a run of text up to the next one. A "{" that never closes is text.
const ASS_PIECE = /\{([^}]*)\}|[^{]+|\{/g;
// Only styling WebVTT can show is kept, plus \p (drawing mode, whose "text" is vector commands)
// and \r (back to the style's defaults). \i, \b, \u and \p take a number; \b700 is a weight, so bold.
const ASS_TAG = /\\(?:([ibup])(\d+)|(r))/g;

export function parseAss(text: string): Cue[] {
  const cues: Cue[] = [];
  let inEvents = false;
  let format = DEFAULT_ASS_FORMAT;
  for (const line of text.replace(BOM, '').split(LINE_BREAK)) {
    const section = SECTION.exec(line);
    if (section) {
      inEvents = section[1]!.trim().toLowerCase() === 'events';
      continue;
    }
    const field = inEvents ? FIELD_LINE.exec(line) : null;
    if (!field) continue;
    const kind = field[1]!.toLowerCase();
    if (kind === 'format') {
      format = field[2]!.split(',').map((name) => name.trim().toLowerCase());
      continue;
    }
    // Comment: lines are events switched off in the editor; they are never shown.
    if (kind !== 'dialogue') continue;
    // Text is the last field and may itself hold commas: only the fields before it are split off.
    const parts = field[2]!.split(',');
    const values = [...parts.slice(0, format.length - 1), parts.slice(format.length - 1).join(',')];
    const value = (name: string): string | undefined => {
      const at = format.indexOf(name);
      return at < 0 ? undefined : values[at];
    };
    const startMs = parseTimestamp(value('start')?.trim() ?? '');
    const endMs = parseTimestamp(value('end')?.trim() ?? '');
    if (startMs === null || endMs === null || endMs <= startMs) continue;
    const cueText = tidy(assToCueText(value('text') ?? '').split('\n'));
    if (cueText !== '') cues.push({ startMs, endMs, text: cueText });
  }
  // Events are often grouped by style or layer rather than by time; Array#sort keeps ties in order.
  return cues.sort((a, b) => a.startMs - b.startMs);
}

function assToCueText(text: string): string {
  const open: string[] = []; // kept tags in the order they were opened
  let drawing = false;
  let out = '';
  const close = (tag: string) => {
    const at = open.lastIndexOf(tag);
    if (at < 0) return;
    // WebVTT ignores an end tag that is not the innermost one, so the tags opened inside it are
    // closed first and opened again after.
    const inner = open.splice(at);
    for (const t of [...inner].reverse()) out += `</${t}>`;
    for (const t of inner.slice(1)) out += `<${t}>`;
    open.push(...inner.slice(1));
  };
  for (const [piece, block] of text.matchAll(ASS_PIECE)) {
    if (block === undefined) {
      if (!drawing) out += piece.replace(/\\[Nn]/g, '\n').replace(/\\h/g, ' ');
      continue;
    }
    for (const [, name, number, reset] of block.matchAll(ASS_TAG)) {
      if (reset) {
        for (const t of [...open].reverse()) close(t);
      } else if (name === 'p') {
        drawing = number !== '0';
      } else if (name !== undefined) {
        const on = number !== '0';
        if (on && !open.includes(name)) {
          open.push(name);
          out += `<${name}>`;
        } else if (!on) close(name);
      }
    }
  }
  for (const t of [...open].reverse()) out += `</${t}>`;
  return out;
}

export function toWebVtt(cues: readonly Cue[], offsetMs = 0): string {
  let out = 'WEBVTT\n\n';
  for (const cue of cues) {
    const endMs = Math.round(cue.endMs + offsetMs);
    // Shifted out of the video entirely; one shifted partly out keeps the part that is left.
    if (endMs <= 0) continue;
    const startMs = Math.max(0, Math.round(cue.startMs + offsetMs));
    if (endMs <= startMs) continue;
    // "-->" would be read as a timing line and a blank line would end the cue.
    const text = tidy(
      cue.text
        .replace(/-{2,}>/g, '->')
        .split('\n')
        .map(escapeCueText),
    );
    if (text === '') continue;
    out += `${formatTimestamp(startMs)} --> ${formatTimestamp(endMs)}\n${text}\n\n`;
  }
  return out;
}

export function convertToWebVtt(text: string, format: SubtitleFormat, offsetMs = 0): string {
  switch (format) {
    case 'srt':
      return toWebVtt(parseSrt(text), offsetMs);
    case 'vtt':
      return toWebVtt(parseVtt(text), offsetMs);
    case 'ass':
    case 'ssa':
      return toWebVtt(parseAss(text), offsetMs);
  }
}

function parseTimestamp(text: string): number | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const minutes = Number(m[2]);
  const seconds = Number(m[3]);
  if (minutes > 59 || seconds > 59) return null;
  const ms = Number(m[4]!.padEnd(3, '0'));
  return ((Number(m[1] ?? 0) * 60 + minutes) * 60 + seconds) * 1000 + ms;
}

function readTiming(line: string): { startMs: number; endMs: number } | null {
  const m = TIMING_LINE.exec(line);
  if (!m) return null;
  const startMs = parseTimestamp(m[1]!);
  const endMs = parseTimestamp(m[2]!);
  return startMs === null || endMs === null ? null : { startMs, endMs };
}

// Hours take as many digits as they need past 99; WebVTT allows it.
function formatTimestamp(ms: number): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(ms % 1000, 3)}`;
}

// Kept tags lose any attributes or classes ("<I>", "<i.loud>" become "<i>"); other tags go and
// their text stays, which is how <font color> turns into plain text.
const keepTags = (line: string, tag: RegExp): string =>
  line.replace(tag, (_, slash: string, name: string) => {
    const lower = name.toLowerCase();
    return KEPT_TAGS.has(lower) ? `<${slash}${lower}>` : '';
  });

const decodeEntities = (line: string): string =>
  line.replace(VTT_ENTITY, (_, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return NAMED_ENTITIES[name]!;
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
  });

// Everything but the kept tags is text, so its &, < and > are escaped.
const escapeCueText = (line: string): string =>
  line
    .split(/(<\/?[ibu]>)/)
    .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('');

// Lines trimmed and blank ones dropped: padding in the file is not part of the subtitle.
const tidy = (lines: readonly string[]): string =>
  lines
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
