// The tokens of release names, for the rule tables (./rules): quality, source, codec, edition
// and 3D tokens where a title ends, and release-site tags before it.

/** A separator between release-style tokens: space, dot, underscore or dash. */
export const SEP = String.raw`[\s._\-]`;

// Tokens where a release-style title ends. One only counts after some title text, so a title
// may start with one ("Uncut Gems"). Plain words common inside titles ("web" in Charlotte's
// Web, "dvd") are left out on purpose. Edition words and "3D" are tags in release names
// ("Pacific.Rim.3D.2013") but may be a title's own words ("Step Up 3D"), so a tidy
// "Title (Year)" name keeps every word before its year (./title).
export const QUALITY_TOKENS = [
  String.raw`(?:480|576|720|1080|1440|2160|4320)[pi]`, // 1080p, 1080i
  '4k',
  '8k',
  'uhd',
  String.raw`hdr(?:10(?:\+|plus)?)?`,
  'dovi', // HDR10+, Dolby Vision
  'blu-?ray',
  String.raw`bd(?:rip|remux|25|50)`,
  'br-?rip',
  'remux', // sources
  'web-?dl',
  'web-?rip',
  'hdtv',
  'hdrip',
  'dvd-?rip',
  'dvdscr',
  'dvd[r59]',
  'hdcam',
  'camrip',
  'telesync',
  'vhs(?:-?rip)?',
  'x26[45]',
  String.raw`h\.?26[45]`,
  'hevc',
  'avc',
  'xvid',
  'divx',
  '10-?bit', // codecs
  'aac',
  'ac3',
  'e-?ac-?3',
  String.raw`ddp?5\.1`,
  'dts(?:-?hd)?',
  'truehd',
  'atmos', // audio
];

// Release flags and edition and 3D tokens end a title too, but a release name may put them before
// its year ("Suicide.Squad.EXTENDED.2016", "Pacific.Rim.3D.2013"), so the year is looked for past
// them. Flags are plain words that never stand before a "(year)" as a tag does ("The Limited
// (2005)"), so they do not end a title there.
const FLAG_TOKENS = ['proper', 'repack', 'rerip', 'limited', 'internal'];

const EDITION_TOKENS = [
  'extended',
  'unrated',
  'uncut',
  'remastered',
  'imax',
  `director['’]?s?${SEP}cut`, // "Director's Cut", "Directors Cut", "Director Cut"
  'theatrical',
  `(?:special|deluxe|criterion|(?:ultimate${SEP})?collector['’]?s?)${SEP}edition`, // not "Special" alone
  `edition${SEP}collector`,
  '3d',
  'h?sbs',
  'htab',
  'mvc', // 3D formats (half or full side by side, top and bottom)
];

// "Inception.2010.1080p.BluRay.x264-GROUP": a token must stand alone between separators. Group
// `flag` or `edition` is set for those tokens.
export const quality = new RegExp(
  String.raw`(?<=[\s._\-[(])(?<token>(?<flag>${FLAG_TOKENS.join('|')})|(?<edition>${EDITION_TOKENS.join('|')})|${QUALITY_TOKENS.join('|')})(?=[\s._\-\])]|$)`,
  'giu',
);

// "Sin City (BluRay) (2005)", "The Rack (VHS) [1956]", "Blade Runner [Director's Cut] (1982)": a
// bracket that holds nothing but tags is never title words, even in a tidy "Title (Year)" name
// where bare words before the year all stay in the title ("Step Up 3D (2010)").
const ANY_TOKEN = `(?:${[...FLAG_TOKENS, ...EDITION_TOKENS, ...QUALITY_TOKENS].join('|')})`;
export const bracketedTags = new RegExp(String.raw`[([]${SEP}*${ANY_TOKEN}(?:${SEP}+${ANY_TOKEN})*${SEP}*[)\]]`, 'giu');

// Top-level domains of release sites seen in names, so "[S.W.A.T.]" or "[Mr.Robot]" is no site.
const SITE_TLD = '(?:com|org|net|info|biz|to|ru|me|tv|cc|be|io|co|uk|eu|ws|se|nl|fr|de|it|es|pl|lt|ch|cz|sk|mx|in|xyz|club|site)';
const SITE = String.raw`(?:www\.)?[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.${SITE_TLD}`;

// "[nextorrent.org] Bienvenue.Au.Gondwana", "[.www.site.com.].-.Show", "From [ WWW.TORRENTING.COM ] - Show",
// "www.4MovieRulz.be - Title (2020)": where the file came from. "[阿维达].Avida.2006": a bracketed tag
// glued to a dotted release name's first word (usually a title in another script); "[REC] (2007)"
// and "[REC].2007" stay. The parser keeps a prefix when no title is left after it (./title).
export const releasePrefix = new RegExp(
  String.raw`^\s*(?:(?:from\s+)?[[(][\s.]*${SITE}[\s.]*[\])]|(?=www\.)${SITE}(?=[\s_]*-)|\[[^\]]+\](?=\.\p{L}))[\s._\-]*`,
  'iu',
);
