// MediaInfoLib's format names mapped to the short names people know from players and release
// names (mostly ffmpeg's). Keys are MediaInfo's `Format`, lowercased. A format with no row falls
// back to its own name in kebab-case, so a new one still reads sensibly until it gets a row.

/** General track `Format` -> container. QuickTime files also say `MPEG-4` (see technical-info.ts). */
export const CONTAINERS: Readonly<Record<string, string>> = {
  'mpeg-4': 'mp4',
  matroska: 'matroska',
  webm: 'webm',
  avi: 'avi',
  'mpeg-ts': 'mpeg-ts',
  bdav: 'm2ts', // Blu-ray's MPEG-TS, with a timestamp before each packet
  'mpeg-ps': 'mpeg-ps',
  'flash video': 'flv',
  'windows media': 'asf',
  ogg: 'ogg',
  realmedia: 'rm',
  dv: 'dv',
  mxf: 'mxf',
};

/** Video track `Format` -> codec. MPEG Video is mpeg1 or mpeg2 by its version (see technical-info.ts). */
export const VIDEO_CODECS: Readonly<Record<string, string>> = {
  avc: 'h264',
  hevc: 'hevc',
  vvc: 'vvc',
  av1: 'av1',
  vp9: 'vp9',
  vp8: 'vp8',
  'mpeg-4 visual': 'mpeg4',
  xvid: 'mpeg4', // AVI files name the encoder's FourCC instead
  divx: 'mpeg4',
  dx50: 'mpeg4',
  'vc-1': 'vc1',
  'h.263': 'h263',
  'sorenson spark': 'flv1',
  prores: 'prores',
  theora: 'theora',
  jpeg: 'mjpeg',
  ffv1: 'ffv1',
};

/** Audio track `Format` -> codec. MPEG Audio is mp3 or mp2 by its layer (see technical-info.ts). */
export const AUDIO_CODECS: Readonly<Record<string, string>> = {
  aac: 'aac',
  'ac-3': 'ac3',
  'e-ac-3': 'eac3',
  'ac-4': 'ac4',
  'mlp fba': 'truehd',
  dts: 'dts',
  flac: 'flac',
  opus: 'opus',
  vorbis: 'vorbis',
  pcm: 'pcm',
  alac: 'alac',
  wma: 'wma',
};

/** Text track `Format` -> subtitle codec. */
export const SUBTITLE_CODECS: Readonly<Record<string, string>> = {
  'utf-8': 'srt', // Matroska's S_TEXT/UTF8 is SubRip text without the numbering
  subrip: 'srt',
  ass: 'ass',
  ssa: 'ssa',
  webvtt: 'webvtt',
  'd_webvtt/subtitles': 'webvtt', // WebM's WebVTT, named by its codec id
  'timed text': 'tx3g', // MP4's own text subtitles (ffmpeg's mov_text)
  pgs: 'pgs',
  vobsub: 'vobsub',
  'dvb subtitle': 'dvbsub',
  'teletext subtitle': 'teletext',
  'eia-608': 'eia-608',
  'eia-708': 'eia-708',
  ttml: 'ttml',
};

/** The short name for a MediaInfo format: its row in `table`, else the name itself in kebab-case. */
export const shortName = (table: Readonly<Record<string, string>>, format: string): string => {
  const key = format.trim().toLowerCase();
  return table[key] ?? key.replace(/[^a-z0-9+.]+/g, '-').replace(/^-+|-+$/g, '');
};
