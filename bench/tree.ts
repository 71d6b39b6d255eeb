// The catalogue bench's library: a seeded, reproducible movie folder of sparse files (an
// apparent size of 700 MiB to 4 GiB each, no data blocks), in the layouts people keep:
// mostly "Title (Year)/Title (Year).mkv", some loose "Title (Year).mp4", some scene release
// names ("Title.Year.1080p.BluRay.x264-GRP.mkv", loose or in a folder of the same name),
// and a share of accented titles. Titles are distinct; a few are remakes (a title that
// already exists, another year), as real libraries have.
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export type Layout = 'folder' | 'loose' | 'release' | 'release-folder';

export interface Movie {
  title: string;
  year: number;
  layout: Layout;
  accented: boolean;
  /** Relative to the root, `/`-separated. */
  relPath: string;
  size: number;
}

/** mulberry32: a small seeded generator, so every run builds the same tree. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const ADJECTIVES = [
  'Silent',
  'Broken',
  'Hidden',
  'Golden',
  'Crimson',
  'Last',
  'Lost',
  'Dark',
  'Bright',
  'Wild',
  'Frozen',
  'Burning',
  'Distant',
  'Hollow',
  'Restless',
  'Quiet',
  'Savage',
  'Fallen',
  'Endless',
  'Electric',
  'Velvet',
  'Iron',
  'Glass',
  'Paper',
  'Northern',
  'Southern',
  'Little',
  'Great',
  'Long',
  'Final',
  'Young',
  'Lonely',
  'Perfect',
  'Strange',
  'Sweet',
  'Bitter',
  'Blue',
  'Red',
  'Black',
  'White',
  'Scarlet',
  'Silver',
  'Stone',
  'Winter',
  'Summer',
  'Autumn',
  'Wicked',
  'Gentle',
  'Forgotten',
  'Sleeping',
  'Howling',
  'Painted',
  'Shattered',
  'Secret',
  'Lucky',
  'Dangerous',
  'Invisible',
  'Eternal',
  'Radiant',
  'Wandering',
];
const NOUNS = [
  'Harbor',
  'Garden',
  'River',
  'Mountain',
  'Road',
  'Kingdom',
  'Empire',
  'Station',
  'Horizon',
  'Shadow',
  'Witness',
  'Stranger',
  'Promise',
  'Letter',
  'Island',
  'Forest',
  'Desert',
  'Tide',
  'Storm',
  'Fire',
  'Heart',
  'Mirror',
  'Dream',
  'City',
  'Bridge',
  'House',
  'Room',
  'Window',
  'Hunter',
  'Soldier',
  'Queen',
  'King',
  'Daughter',
  'Brother',
  'Sister',
  'Widow',
  'Lovers',
  'Thief',
  'Detective',
  'Game',
  'Night',
  'Morning',
  'Song',
  'Dance',
  'Voyage',
  'Journey',
  'Escape',
  'Legacy',
  'Code',
  'Signal',
  'Machine',
  'Planet',
  'Moon',
  'Ocean',
  'Valley',
  'Frontier',
  'Circle',
  'Edge',
  'Crown',
  'Sword',
  'Key',
  'Map',
  'Lighthouse',
  'Orchard',
  'Carnival',
  'Harvest',
  'Ghost',
  'Angel',
  'Wolf',
  'Raven',
  'Tiger',
  'Horse',
  'Train',
  'Ship',
  'Engine',
  'Castle',
  'Tower',
  'Village',
  'Winter',
  'Summer',
  'Party',
  'Wedding',
  'Funeral',
];
const PLACES = [
  'Lisbon',
  'Tokyo',
  'Paris',
  'Berlin',
  'Cairo',
  'Havana',
  'Vienna',
  'Istanbul',
  'Marseille',
  'Shanghai',
  'Montreal',
  'Nairobi',
  'Oslo',
  'Prague',
  'Budapest',
  'Dublin',
  'Casablanca',
  'Chicago',
  'Memphis',
  'Naples',
  'Tangier',
  'Manhattan',
  'Brooklyn',
  'Alaska',
  'Texas',
  'Siberia',
  'Patagonia',
  'Bombay',
  'Hong Kong',
  'Rio',
];
const NAMES = [
  'Harry',
  'Clara',
  'Jonas',
  'Martha',
  'Ellis',
  'Vera',
  'Oscar',
  'Nina',
  'Felix',
  'Ruth',
  'Arthur',
  'Lena',
  'Walter',
  'Iris',
  'Frank',
  'Edith',
  'Max',
  'Alice',
  'Leo',
  'Mabel',
  'Jack',
  'Rosa',
  'Billy',
  'Grace',
  'Sam',
  'Judith',
];
const ACCENTED_NAMES = [
  'Amélie',
  'Léon',
  'Zoé',
  'Hélène',
  'Inés',
  'José',
  'Jürgen',
  'Søren',
  'Björn',
  'Agnès',
  'Thérèse',
  'Renée',
  'Chloé',
  'Raphaël',
  'Joaquín',
  'Åsa',
  'François',
  'Ramón',
  'Noémie',
  'Jérôme',
];
const ACCENTED_PLACES = [
  'São Paulo',
  'Zürich',
  'Malmö',
  'Besançon',
  'Reykjavík',
  'Córdoba',
  'Kraków',
  'Bogotá',
  'Genève',
  'Düsseldorf',
  'Montréal',
  'Orléans',
  'Cádiz',
  'Nîmes',
  'Tromsø',
];
const ACCENTED_WORDS = ['Café', 'Château', 'Déjà Vu', 'Fiancée', 'Mañana', 'Crème Brûlée', 'Soirée', 'Über Alles', 'Noël', 'Naïve'];
const FRENCH = ['Le Fabuleux Destin de', 'La Vie de', 'Les Amants de', 'Le Secret de', 'Un Été avec', 'La Chambre de'];
const SEQUELS = ['II', 'III', '2', '3', 'Part II'];
const QUALITIES = ['720p', '1080p', '1080p', '2160p'];
const SOURCES = ['BluRay', 'WEB-DL', 'BluRay', 'HDTV', 'WEBRip'];
const CODECS = ['x264', 'x265', 'H.264', 'HEVC'];
const GROUPS = ['GRP', 'SPARKS', 'FGT', 'RARBG', 'NTb', 'AMIABLE', 'YIFY', 'DIMENSION'];
const VIDEO_EXTENSIONS = ['.mkv', '.mkv', '.mkv', '.mp4', '.avi', '.m4v'];

const MIN_SIZE = 700 * 2 ** 20;
const MAX_SIZE = 4 * 2 ** 30;

/** How a search folds a title: lowercase, accents off, words only. */
export const foldWords = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

export const generateMovies = (count: number, seed = 20261122): Movie[] => {
  const rand = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const twoNouns = () => {
    const first = pick(NOUNS);
    let second = pick(NOUNS);
    while (second === first) second = pick(NOUNS);
    return [first, second] as const;
  };
  const plain = (): string => {
    const r = rand();
    if (r < 0.2) return `The ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    if (r < 0.35) return `${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    if (r < 0.5) return `The ${pick(NOUNS)} of ${pick(PLACES)}`;
    if (r < 0.62) {
      const [a, b] = twoNouns();
      return `${a} of the ${pick(ADJECTIVES)} ${b}`;
    }
    if (r < 0.72) return `${pick(NAMES)}'s ${pick(NOUNS)}`;
    if (r < 0.8) return `${pick(ADJECTIVES)} ${pick(NOUNS)} in ${pick(PLACES)}`;
    if (r < 0.86) {
      const noun = pick(NOUNS);
      return `${/^[AEIOU]/.test(noun) ? 'An' : 'A'} ${noun} for ${pick(NAMES)}`;
    }
    if (r < 0.92) return `${pick(NAMES)} and the ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    return `The ${pick(ADJECTIVES)} ${pick(NOUNS)} ${pick(SEQUELS)}`;
  };
  const accented = (): string => {
    const r = rand();
    if (r < 0.25) return `${pick(FRENCH)} ${pick(ACCENTED_NAMES)}`;
    if (r < 0.45) return `${pick(ACCENTED_NAMES)}'s ${pick(NOUNS)}`;
    if (r < 0.65) return `${pick(ADJECTIVES)} ${pick(NOUNS)} in ${pick(ACCENTED_PLACES)}`;
    if (r < 0.85) return `${pick(ACCENTED_WORDS)} ${pick(ACCENTED_PLACES)}`;
    return `The ${pick(ADJECTIVES)} ${pick(ACCENTED_WORDS)}`;
  };

  const movies: Movie[] = [];
  const titles = new Map<string, number[]>(); // folded title -> years taken
  while (movies.length < count) {
    const isAccented = rand() < 0.06;
    const remake = movies.length > 100 && rand() < 0.01;
    const title = remake ? movies[Math.floor(rand() * movies.length)]!.title : isAccented ? accented() : plain();
    const year = 1930 + Math.floor(rand() * 95);
    const key = foldWords(title).join(' ');
    const years = titles.get(key);
    if (remake ? years?.some((y) => Math.abs(y - year) < 3) : years !== undefined) continue;
    titles.set(key, [...(years ?? []), year]);

    const r = rand();
    const layout: Layout = r < 0.7 ? 'folder' : r < 0.85 ? 'loose' : r < 0.95 ? 'release' : 'release-folder';
    const named = `${title} (${year})`;
    const ext = pick(VIDEO_EXTENSIONS);
    const release = `${title.replace(/'/g, '').split(' ').join('.')}.${year}.${pick(QUALITIES)}.${pick(SOURCES)}.${pick(CODECS)}-${pick(GROUPS)}`;
    const relPath =
      layout === 'folder'
        ? `${named}/${named}${ext}`
        : layout === 'loose'
          ? `${named}${ext === '.mkv' ? '.mp4' : ext}`
          : layout === 'release'
            ? `${release}.mkv`
            : `${release}/${release}.mkv`;
    const size = MIN_SIZE + Math.floor(rand() * (MAX_SIZE - MIN_SIZE));
    movies.push({ title, year, layout, accented: isAccented || /[^\x20-\x7e]/.test(title), relPath, size });
  }
  return movies;
};

/** Runs fn over items, at most `concurrency` at a time. */
export const pool = async <T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<unknown>) => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
};

/** Creates every movie under root as a sparse file of its apparent size. */
export const writeTree = async (root: string, movies: readonly Movie[]) => {
  const folders = new Set(movies.map((m) => dirname(m.relPath)).filter((d) => d !== '.'));
  await pool([...folders], 64, (d) => mkdir(join(root, d), { recursive: true }));
  await pool(movies, 64, async (m) => {
    const file = await open(join(root, m.relPath), 'wx');
    try {
      await file.truncate(m.size);
    } finally {
      await file.close();
    }
  });
};

/** Counts of each layout and of accented titles, for the report. */
export const describe = (movies: readonly Movie[]) => {
  const by = (layout: Layout) => movies.filter((m) => m.layout === layout).length;
  return {
    folder: by('folder'),
    loose: by('loose'),
    release: by('release') + by('release-folder'),
    accented: movies.filter((m) => m.accented).length,
    remakes: movies.length - new Set(movies.map((m) => foldWords(m.title).join(' '))).size,
  };
};

/** Titles a search for `query` should find: every query word is a prefix of some title word. */
export const expectedHits = (movies: readonly Movie[], query: string) => {
  const words = foldWords(query);
  return movies.filter((m) => {
    const own = foldWords(m.title);
    return words.every((w) => own.some((o) => o.startsWith(w)));
  });
};

const STOP_WORDS = new Set(['the', 'of', 'a', 'in', 'for', 'and', 's']);

/** A word prefix that hits many titles, and a full title only one title matches (accented if one is). */
export const searchQueries = (movies: readonly Movie[]) => {
  const counts = new Map<string, number>();
  for (const m of movies)
    for (const w of new Set(foldWords(m.title))) if (!STOP_WORDS.has(w) && w.length >= 5) counts.set(w, (counts.get(w) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? 'night';
  const broad = common.slice(0, 4);
  // No apostrophe: how "Amélie's" is split into words is the service's choice.
  const plainWords = movies.filter((m) => !m.title.includes("'"));
  const candidates = [...plainWords.filter((m) => m.accented && foldWords(m.title).length >= 3), ...plainWords];
  const rare = candidates.find((m) => expectedHits(movies, m.title).length === 1) ?? movies[0]!;
  // Accents off and lowercase: the search is meant to be case- and accent-insensitive.
  const narrow = foldWords(rare.title).join(' ');
  return { broad, broadHits: expectedHits(movies, broad).length, narrow, narrowTitle: rare.title };
};
