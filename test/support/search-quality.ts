// Search quality: a seeded catalogue of films and shows with the features that make title search
// hard (remakes, franchises, accents, original titles in other languages, alternative titles,
// credited people), and a set of queries as people type them, each with the items that are a
// right first result. Every query's answer is worked out from the catalogue and checked against it
// by a plain scan, and queries whose answer is a matter of taste (two titles the same words fit as
// well) are left out, so a miss is the search's. `scoreQueries` runs them and reports, by kind,
// the share with a right first result and with one in the first five.
import { editsWithin } from '../../lib/search/fuzzy';
import type { Searchable } from '../../lib/search/index';

export type QueryKind =
  | 'exact'
  | 'prefix'
  | 'typo-deletion'
  | 'typo-insertion'
  | 'typo-substitution'
  | 'typo-transposition'
  | 'year'
  | 'original-title'
  | 'alternative-title'
  | 'person';

export interface QualityQuery {
  kind: QueryKind;
  query: string;
  /** ids any of which is a right first result */
  expected: string[];
  /** short why, for reports */
  note: string;
}

export interface KindScore {
  kind: QueryKind | 'typo (all)' | 'all';
  queries: number;
  /** fractions 0..1 */
  top1: number;
  top5: number;
  misses: { query: string; expected: string[]; got: string[] }[];
}

const KINDS: readonly QueryKind[] = [
  'exact',
  'prefix',
  'typo-deletion',
  'typo-insertion',
  'typo-substitution',
  'typo-transposition',
  'year',
  'original-title',
  'alternative-title',
  'person',
];
type TypoKind = 'typo-deletion' | 'typo-insertion' | 'typo-substitution' | 'typo-transposition';
const TYPO_KINDS: readonly QueryKind[] = ['typo-deletion', 'typo-insertion', 'typo-substitution', 'typo-transposition'];

const CATALOGUE_SEED = 0x5ea2c4;
const QUERY_SEED = 0x9e7a11;

// ---------------------------------------------------------------------------------------------
// Dice: mulberry32, so a seed gives the same catalogue and queries on every run.

class Dice {
  private state: number;
  constructor(seed: number) {
    this.state = seed | 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** 0 .. n-1 */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** lo .. hi, both included */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  /** Low indexes far more often than high ones: `skew` 1 is uniform, higher is steeper. */
  skewed(n: number, skew: number): number {
    return Math.min(n - 1, Math.floor(n * this.next() ** skew));
  }
  /**
   * An index into n things split in tiers, first to last: tier k holds `sizes[k]` of them (a
   * fraction of n) and gets `shares[k]` of the picks, spread evenly over it.
   */
  tiered(n: number, sizes: readonly number[], shares: readonly number[]): number {
    let r = this.next();
    let from = 0;
    for (let k = 0; k < sizes.length; k++) {
      const size = Math.max(1, Math.round(n * sizes[k]!));
      if (r < shares[k]! || k === sizes.length - 1) return Math.min(n - 1, from + (Math.floor((r / shares[k]!) * size) % size));
      r -= shares[k]!;
      from += size;
    }
    return n - 1;
  }
  shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  }
}

// ---------------------------------------------------------------------------------------------
// Folding: the form a user expects titles to be compared in (lowercase, accents off, "&" as
// "and", an apostrophe inside a word joining it, other punctuation a break).

const LETTER_FOLDS: Readonly<Record<string, string>> = { æ: 'ae', œ: 'oe', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLDED_LETTER = /[æœßøłđðþı]/gu;
const INNER_APOSTROPHE = /(?<=[\p{L}\p{N}])['’]+(?=[\p{L}\p{N}])/gu;

const unaccented = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(FOLDED_LETTER, (c) => LETTER_FOLDS[c] ?? c);

/** Folded words: "Clara's Café: Part II" → ["claras", "cafe", "part", "ii"]. */
const fold = (text: string): string[] => {
  const plain = unaccented(text)
    .replace(/&/gu, ' and ')
    .replace(INNER_APOSTROPHE, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return plain === '' ? [] : plain.split(' ');
};
/** `fold` for texts that recur (people's names): each folded once. */
const folder = () => {
  const known = new Map<string, string[]>();
  return (text: string) => {
    let words = known.get(text);
    if (words === undefined) known.set(text, (words = fold(text)));
    return words;
  };
};
/** The same with every apostrophe a break: "L'Isola" → ["l", "isola"]. */
const foldAtApostrophes = (text: string) => fold(text.replace(/['’]/gu, ' '));

const ARTICLES = new Set(['the', 'a', 'an', 'le', 'la', 'les', 'l', 'el', 'los', 'las', 'lo', 'il', 'gli', 'der', 'die', 'das']);
/** The words run together, a leading article left out when more words follow. */
const bareOf = (words: readonly string[]) => (words.length > 1 && ARTICLES.has(words[0]!) ? words.slice(1) : words).join('');

const ROMAN = ['ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x'];
const NUMERAL = new Map<string, string>(
  ROMAN.flatMap((r, i) => [
    [r, String(i + 2)],
    [String(i + 2), r],
  ]),
);

/** The words and, for a text with apostrophes, the halves of its apostrophe words. */
const plainWordsOf = (text: string, words: readonly string[]): string[] =>
  /['’]/u.test(text) ? [...new Set([...words, ...foldAtApostrophes(text)])] : [...words];

/** What a title can be found by: its words, the halves of apostrophe words, neighbours run together, the other numeral. */
const tokensOf = (plainWords: readonly string[], words: readonly string[]): string[] => {
  const found = new Set(plainWords);
  for (let i = 1; i < words.length; i++) found.add(words[i - 1]! + words[i]!);
  for (const w of words) {
    const other = NUMERAL.get(w);
    if (other !== undefined) found.add(other);
  }
  return [...found];
};

/** How people type a text: lowercase, accents and punctuation off, apostrophes and "&" kept. */
const plainTyping = (text: string) =>
  unaccented(text)
    .replace(/[^\p{L}\p{N}'’&]+/gu, ' ')
    .trim();

type Typing = 'as-written' | 'lowercase' | 'plain';
const typed = (text: string, how: Typing) => (how === 'as-written' ? text : how === 'lowercase' ? text.toLowerCase() : plainTyping(text));
const someTyping = (dice: Dice): Typing => {
  const r = dice.next();
  return r < 0.25 ? 'as-written' : r < 0.55 ? 'lowercase' : 'plain';
};

// ---------------------------------------------------------------------------------------------
// Title vocabulary.

const ADJECTIVES = [
  'Silent',
  'Hollow',
  'Amber',
  'Crooked',
  'Restless',
  'Gilded',
  'Pale',
  'Velvet',
  'Broken',
  'Hidden',
  'Scarlet',
  'Crimson',
  'Distant',
  'Frozen',
  'Burning',
  'Wandering',
  'Forgotten',
  'Sleeping',
  'Painted',
  'Shattered',
  'Savage',
  'Gentle',
  'Lonely',
  'Bitter',
  'Tender',
  'Wicked',
  'Radiant',
  'Fading',
  'Drowned',
  'Sunken',
  'Narrow',
  'Endless',
  'Quiet',
  'Wild',
  'Golden',
  'Silver',
  'Iron',
  'Copper',
  'Glass',
  'Paper',
  'Marble',
  'Northern',
  'Southern',
  'Eastern',
  'Western',
  'Lucky',
  'Reckless',
  'Brave',
  'Cruel',
  'Honest',
  'Foolish',
  'Hungry',
  'Weary',
  'Sacred',
  'Stolen',
  'Borrowed',
  'Invisible',
  'Electric',
  'Neon',
  'Crystal',
  'Emerald',
  'Ivory',
  'Obsidian',
  'Violet',
  'Indigo',
  'Ashen',
  'Blind',
  'Final',
  'Last',
  'First',
  'Little',
  'Great',
  'Long',
  'Lost',
  'Dark',
  'Bright',
  'Cold',
  'Warm',
  'Young',
  'Ancient',
  'Perfect',
  'Strange',
  'Sweet',
  'Blue',
  'Red',
  'Black',
  'White',
  'Green',
  'Grey',
  'Empty',
  'Heavy',
  'Lunar',
  'Solar',
  'Mortal',
  'Eternal',
  'Faithful',
  'Fearless',
  'Careless',
  'Nameless',
  'Howling',
  'Whispering',
  'Dancing',
  'Falling',
  'Rising',
  'Sinking',
  'Turning',
  'Winding',
  'Blazing',
  'Raging',
  'Sleepless',
  'Wounded',
  'Hunted',
  'Haunted',
  'Cursed',
  'Blessed',
  'Crowned',
  'Exiled',
  'Vanishing',
  'Phantom',
  'Feral',
  'Tangled',
  'Bleak',
  'Brittle',
  'Hushed',
  'Luminous',
  'Solemn',
  'Vivid',
  'Dusky',
  'Misty',
  'Stormy',
  'Rusty',
  'Dusty',
  'Silken',
  'Wooden',
  'Secret',
  'Midnight',
  'Furious',
  'Fragile',
  'Jagged',
  'Tranquil',
];
const NOUNS = [
  'Harbor',
  'Lantern',
  'Orchard',
  'Meadow',
  'Canyon',
  'Glacier',
  'Lighthouse',
  'Ferry',
  'Carousel',
  'Carnival',
  'Circus',
  'Cathedral',
  'Monastery',
  'Chapel',
  'Fortress',
  'Citadel',
  'Tower',
  'Castle',
  'Palace',
  'Cottage',
  'Villa',
  'Manor',
  'Garden',
  'River',
  'Mountain',
  'Valley',
  'Forest',
  'Desert',
  'Island',
  'Ocean',
  'Tide',
  'Storm',
  'Thunder',
  'Lightning',
  'Rain',
  'Snow',
  'Frost',
  'Fog',
  'Mist',
  'Dust',
  'Ember',
  'Flame',
  'Fire',
  'Smoke',
  'Mirror',
  'Window',
  'Door',
  'Staircase',
  'Corridor',
  'Attic',
  'Cellar',
  'Tunnel',
  'Bridge',
  'Road',
  'Highway',
  'Railway',
  'Station',
  'Platform',
  'Train',
  'Engine',
  'Ship',
  'Voyage',
  'Journey',
  'Passage',
  'Crossing',
  'Border',
  'Frontier',
  'Horizon',
  'Shore',
  'Coast',
  'Cliff',
  'Reef',
  'Lagoon',
  'Swamp',
  'Prairie',
  'Steppe',
  'Tundra',
  'Jungle',
  'Oasis',
  'Kingdom',
  'Empire',
  'Republic',
  'Dynasty',
  'Crown',
  'Throne',
  'Sword',
  'Shield',
  'Arrow',
  'Dagger',
  'Pistol',
  'Rifle',
  'Bullet',
  'Witness',
  'Stranger',
  'Promise',
  'Letter',
  'Shadow',
  'Silence',
  'Whisper',
  'Echo',
  'Melody',
  'Song',
  'Ballad',
  'Symphony',
  'Sonata',
  'Waltz',
  'Tango',
  'Dance',
  'Heart',
  'Soul',
  'Spirit',
  'Ghost',
  'Angel',
  'Devil',
  'Saint',
  'Sinner',
  'Prophet',
  'Pilgrim',
  'Soldier',
  'Sailor',
  'Pilot',
  'Doctor',
  'Teacher',
  'Painter',
  'Poet',
  'Dancer',
  'Gambler',
  'Thief',
  'Spy',
  'Detective',
  'Assassin',
  'Widow',
  'Orphan',
  'Bride',
  'Daughter',
  'Brother',
  'Sister',
  'Mother',
  'Father',
  'Husband',
  'Queen',
  'Prince',
  'Princess',
  'Emperor',
  'Duchess',
  'Knight',
  'Wolf',
  'Raven',
  'Tiger',
  'Falcon',
  'Sparrow',
  'Heron',
  'Stag',
  'Bear',
  'Serpent',
  'Dragon',
  'Horse',
  'Whale',
  'Moth',
  'Butterfly',
  'Spider',
  'Beetle',
  'Rose',
  'Lily',
  'Orchid',
  'Thorn',
  'Willow',
  'Cedar',
  'Oak',
  'Birch',
  'Ivy',
  'Moss',
  'Clover',
  'Moon',
  'Sun',
  'Star',
  'Comet',
  'Planet',
  'Galaxy',
  'Nebula',
  'Eclipse',
  'Dawn',
  'Dusk',
  'Twilight',
  'Morning',
  'Evening',
  'Night',
  'Winter',
  'Summer',
  'Autumn',
  'Spring',
  'Harvest',
  'Festival',
  'Wedding',
  'Funeral',
  'Party',
  'Banquet',
  'Feast',
  'Game',
  'Wager',
  'Bargain',
  'Ransom',
  'Debt',
  'Fortune',
  'Treasure',
  'Map',
  'Compass',
  'Key',
  'Lock',
  'Code',
  'Cipher',
  'Signal',
  'Machine',
  'Clockwork',
  'Clock',
  'Hour',
  'Legacy',
  'Memory',
  'Dream',
  'Nightmare',
  'Fever',
  'Hunger',
  'Thirst',
  'Desire',
  'Vengeance',
  'Mercy',
  'Glory',
  'Honor',
  'Betrayal',
  'Confession',
  'Verdict',
  'Trial',
  'Alibi',
  'Escape',
  'Chase',
  'Pursuit',
  'Exodus',
  'Reckoning',
  'Awakening',
  'Collapse',
  'Uprising',
  'Rebellion',
  'Revolution',
  'Conspiracy',
  'Archive',
  'Library',
  'Museum',
  'Theater',
  'Opera',
  'Hotel',
  'Motel',
  'Diner',
  'Bakery',
  'Factory',
  'Foundry',
  'Quarry',
  'Vineyard',
  'Ranch',
  'Farm',
  'Barn',
  'Kitchen',
  'Parlor',
  'Ballroom',
  'Gallery',
  'Rumor',
  'Armor',
  'Valor',
];
const PLURALS = [
  'Hearts',
  'Lovers',
  'Strangers',
  'Wolves',
  'Ravens',
  'Horses',
  'Angels',
  'Ghosts',
  'Shadows',
  'Mirrors',
  'Lanterns',
  'Thieves',
  'Sisters',
  'Brothers',
  'Daughters',
  'Soldiers',
  'Sailors',
  'Saints',
  'Sinners',
  'Dreamers',
  'Drifters',
  'Outlaws',
  'Exiles',
  'Pilgrims',
  'Orphans',
  'Widows',
  'Giants',
  'Islands',
  'Rivers',
  'Mountains',
  'Bridges',
  'Roads',
  'Tides',
  'Storms',
  'Stars',
  'Moons',
  'Bells',
  'Wings',
  'Feathers',
  'Bones',
  'Embers',
  'Echoes',
  'Whispers',
  'Secrets',
  'Promises',
  'Letters',
  'Fools',
  'Gods',
  'Monsters',
  'Machines',
  'Clocks',
  'Seasons',
  'Summers',
  'Winters',
  'Tigers',
  'Dragons',
  'Knights',
  'Queens',
  'Witnesses',
  'Gardens',
  'Orchards',
];
const PLACES = [
  'Lisbon',
  'Tangier',
  'Vienna',
  'Trieste',
  'Odessa',
  'Marrakesh',
  'Havana',
  'Manila',
  'Saigon',
  'Kyoto',
  'Osaka',
  'Seoul',
  'Macau',
  'Shanghai',
  'Calcutta',
  'Lahore',
  'Kabul',
  'Tehran',
  'Baghdad',
  'Beirut',
  'Damascus',
  'Alexandria',
  'Cairo',
  'Khartoum',
  'Nairobi',
  'Zanzibar',
  'Dakar',
  'Timbuktu',
  'Algiers',
  'Tunis',
  'Palermo',
  'Naples',
  'Venice',
  'Florence',
  'Seville',
  'Granada',
  'Porto',
  'Dublin',
  'Glasgow',
  'Edinburgh',
  'Belfast',
  'Liverpool',
  'Brighton',
  'Amsterdam',
  'Rotterdam',
  'Antwerp',
  'Hamburg',
  'Berlin',
  'Dresden',
  'Prague',
  'Budapest',
  'Warsaw',
  'Riga',
  'Tallinn',
  'Helsinki',
  'Stockholm',
  'Oslo',
  'Bergen',
  'Copenhagen',
  'Galway',
  'Chicago',
  'Memphis',
  'Savannah',
  'Nashville',
  'Detroit',
  'Baltimore',
  'Boston',
  'Brooklyn',
  'Harlem',
  'Manhattan',
  'Tijuana',
  'Acapulco',
  'Montevideo',
  'Santiago',
  'Lima',
  'Quito',
  'Patagonia',
  'Siberia',
  'Alaska',
  'Yukon',
  'Tasmania',
  'Saskatchewan',
  'Nevada',
  'Dakota',
  'Arizona',
  'Texas',
  'Oklahoma',
];
/** Characters in titles ("Clara's Garden"): never the names of credited people. */
const CHARACTERS = [
  'Clara',
  'Oskar',
  'Mabel',
  'Walter',
  'Edith',
  'Harriet',
  'Otto',
  'Hector',
  'Winifred',
  'Percy',
  'Bertie',
  'Rosie',
  'Tilly',
  'Archie',
  'Nell',
  'Milo',
  'Iris',
  'Ruby',
  'Frankie',
  'Lottie',
  'Ned',
  'Dolly',
  'Sid',
  'Marnie',
  'Cosmo',
  'Lola',
  'Ziggy',
  'Hattie',
  'Wilbur',
  'Agatha',
  'Cornelius',
  'Bartholomew',
  'Ophelia',
  'Horace',
  'Mildred',
  'Ernest',
  'Gus',
  'Peggy',
  'Rudy',
  'Vinnie',
  'Lenny',
  'Benny',
  'Elsie',
  'Maude',
  'Ezra',
  'Jonah',
  'Abel',
  'Esther',
  'Delilah',
  'Samson',
  'Virgil',
  'Myrtle',
  'Clementine',
  'Barnaby',
];
const ONE_WORD_TITLES = [
  'Inferno',
  'Solitude',
  'Nightfall',
  'Moonrise',
  'Sundown',
  'Undertow',
  'Aftermath',
  'Afterglow',
  'Backwater',
  'Bloodline',
  'Borderland',
  'Breakwater',
  'Brimstone',
  'Catalyst',
  'Cataclysm',
  'Crossfire',
  'Daybreak',
  'Downpour',
  'Dreamland',
  'Driftwood',
  'Embargo',
  'Epilogue',
  'Equinox',
  'Exile',
  'Firebird',
  'Firestorm',
  'Flashpoint',
  'Foxglove',
  'Freefall',
  'Gravity',
  'Heatwave',
  'Hindsight',
  'Hinterland',
  'Homecoming',
  'Hurricane',
  'Insomnia',
  'Interlude',
  'Labyrinth',
  'Landslide',
  'Limbo',
  'Lockdown',
  'Longshot',
  'Lullaby',
  'Maelstrom',
  'Mayhem',
  'Meridian',
  'Metropolis',
  'Mirage',
  'Monsoon',
  'Moonlight',
  'Nemesis',
  'Nocturne',
  'Oblivion',
  'Odyssey',
  'Outpost',
  'Overture',
  'Paradox',
  'Paragon',
  'Pendulum',
  'Pinnacle',
  'Prelude',
  'Purgatory',
  'Quicksand',
  'Quicksilver',
  'Rapture',
  'Requiem',
  'Riptide',
  'Sanctuary',
  'Scarecrow',
  'Serenade',
  'Shipwreck',
  'Skyline',
  'Snowbound',
  'Solstice',
  'Spellbound',
  'Stardust',
  'Starfall',
  'Tailspin',
  'Tempest',
  'Threshold',
  'Thunderhead',
  'Tinderbox',
  'Tripwire',
  'Turbulence',
  'Undercurrent',
  'Underworld',
  'Utopia',
  'Vendetta',
  'Vortex',
  'Wanderlust',
  'Wasteland',
  'Whirlwind',
  'Wildfire',
  'Windfall',
  'Wolfsbane',
  'Zenith',
  'Ricochet',
  'Reverie',
  'Providence',
  'Penumbra',
  'Panorama',
  'Overboard',
  'Outcast',
  'Nomad',
  'Mutiny',
  'Masquerade',
  'Marauder',
  'Lodestar',
  'Kaleidoscope',
  'Juggernaut',
  'Jubilee',
  'Interstate',
  'Impostor',
  'Hailstorm',
  'Gauntlet',
  'Fugitive',
  'Firefly',
  'Fathom',
  'Eventide',
  'Evergreen',
  'Dominion',
  'Deadlock',
  'Crescendo',
  'Counterfeit',
  'Clockwise',
  'Castaway',
  'Cascade',
  'Blizzard',
  'Blackout',
  'Bedlam',
  'Avalanche',
  'Asylum',
  'Armistice',
  'Apparition',
  'Ambush',
  'Allegiance',
  'Afterlife',
  'Abyss',
  'Doppelgänger',
  'Séance',
];
const GERUNDS = [
  'Chasing',
  'Finding',
  'Leaving',
  'Becoming',
  'Burying',
  'Saving',
  'Keeping',
  'Catching',
  'Breaking',
  'Following',
  'Remembering',
  'Forgetting',
  'Killing',
  'Loving',
  'Hunting',
  'Raising',
  'Holding',
  'Stealing',
  'Selling',
  'Building',
  'Guarding',
  'Watching',
  'Crossing',
  'Defending',
  'Taming',
  'Mending',
];
const GERUNDS_FOR = ['Waiting for', 'Searching for', 'Looking for', 'Dreaming of', 'Running from', 'Praying for', 'Singing for'];
const NUMBERS = [
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Twelve',
  'Thirteen',
  'Forty',
  'A Hundred',
  'A Thousand',
];
const SUBTITLES = [
  'The Return',
  'The Reckoning',
  'A New Dawn',
  'Origins',
  'The Last Stand',
  'Redemption',
  'The Final Chapter',
  'Resurrection',
  'The Awakening',
  'Blood Ties',
  'The Lost Years',
  'Homeward',
  'First Light',
  'The Long Night',
  'The Beginning',
  'Aftershock',
  'Revelations',
  'The Hunt',
  'The Inheritance',
  'Dead Reckoning',
  'Broken Oaths',
  'The Siege',
  'Crossroads',
  'The Descent',
  'Ascension',
  'The Covenant',
  'Homecoming',
  'The Fall',
];
const PREPOSITIONS = ['Beyond', 'Under', 'After', 'Before', 'Across', 'Behind', 'Beneath', 'Into', 'Against', 'Above', 'Without', 'Within'];
const TO_PLACE = [
  'Return to',
  'Escape from',
  'Last Train to',
  'Letters from',
  'Far from',
  'North of',
  'South of',
  'Somewhere in',
  'Night Boat to',
  'Postcards from',
  'A Night in',
  'Winter in',
];

const ACCENTED_WORDS = [
  'Café',
  'Château',
  'Déjà Vu',
  'Fiancée',
  'Mañana',
  'Soirée',
  'Naïve',
  'Piñata',
  'Résumé',
  'Protégé',
  'Mêlée',
  'Cliché',
  'Façade',
  'Rosé',
  'Touché',
  'Exposé',
  'Jalapeño',
  'Crème',
  'Pâtisserie',
  'Entrée',
  'Débutante',
  'Matinée',
  'Attaché',
  'Señorita',
  'Smörgåsbord',
  'Über',
];
const ACCENTED_PLACES = [
  'São Paulo',
  'Zürich',
  'Malmö',
  'Tromsø',
  'Bogotá',
  'Cádiz',
  'Kraków',
  'Reykjavík',
  'Besançon',
  'Göteborg',
  'Århus',
  'Curaçao',
  'Asunción',
  'Mérida',
  'Cancún',
  'Valparaíso',
  'Québec',
  'Orléans',
  'Nîmes',
  'Genève',
  'Lübeck',
  'Köln',
  'Ålesund',
  'Łódź',
  'Plzeň',
  'Düsseldorf',
  'Montréal',
  'Córdoba',
  'Medellín',
  'Jönköping',
];
const ACCENTED_CHARACTERS = [
  'Zoé',
  'Léa',
  'Hélène',
  'Inès',
  'Mathéo',
  'Chloé',
  'Anaïs',
  'José',
  'Ángel',
  'Björn',
  'Noël',
  'Renée',
  'Jérémie',
  'Dagný',
  'Ólafur',
  'Maïté',
  'Tomáš',
  'Øyvind',
];

// Alternative titles: another English rendering (a synonym, British spelling), or a working title.
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  Silent: ['Quiet', 'Hushed'],
  Quiet: ['Silent'],
  Hidden: ['Secret', 'Concealed'],
  Secret: ['Hidden'],
  Broken: ['Shattered'],
  Lost: ['Vanished', 'Missing'],
  Final: ['Last'],
  Last: ['Final'],
  Wild: ['Savage'],
  Little: ['Small'],
  Great: ['Grand'],
  Ancient: ['Old'],
  Lonely: ['Lonesome'],
  Strange: ['Curious'],
  Crimson: ['Scarlet'],
  Scarlet: ['Crimson'],
  Endless: ['Eternal'],
  Burning: ['Blazing'],
  Frozen: ['Icy'],
  Gilded: ['Golden'],
  Dark: ['Black'],
  Cold: ['Chill'],
  Harbor: ['Port', 'Harbour'],
  Road: ['Highway'],
  River: ['Stream'],
  Forest: ['Woods'],
  Ocean: ['Sea'],
  Shadow: ['Shade'],
  Stranger: ['Outsider'],
  Thief: ['Burglar'],
  Detective: ['Inspector'],
  Voyage: ['Journey'],
  Journey: ['Voyage'],
  Escape: ['Breakout'],
  Fortress: ['Stronghold'],
  Palace: ['Mansion'],
  Promise: ['Vow'],
  Memory: ['Remembrance'],
  Dream: ['Vision'],
  Vengeance: ['Revenge'],
  Legacy: ['Inheritance'],
  Kingdom: ['Realm'],
  Sword: ['Blade'],
  Ghost: ['Phantom'],
  Song: ['Ballad'],
  Dance: ['Waltz'],
  Honor: ['Honour'],
  Theater: ['Theatre'],
  Parlor: ['Parlour'],
  Rumor: ['Rumour'],
  Armor: ['Armour'],
  Valor: ['Valour'],
  Widow: ['Widower'],
  Night: ['Nighttime'],
};
const WORKING_TITLES = ['Project', 'Operation', 'Codename', 'Untitled'];
const WORKING_SUFFIXES = ['Protocol', 'Affair', 'Project', 'Papers', 'Files', 'Tapes', 'Sessions', 'Dossier'];

// Original titles: invented phrases in four languages, each noun with what its articles need.
type Gender = 'm' | 'f' | 'mp' | 'fp';
const FR_NOUNS: readonly [string, Gender][] = [
  ['Secret', 'm'],
  ['Rivière', 'f'],
  ['Château', 'm'],
  ['Forêt', 'f'],
  ['Été', 'm'],
  ['Hiver', 'm'],
  ['Mémoire', 'f'],
  ['Fenêtre', 'f'],
  ['Étoile', 'f'],
  ['Lumière', 'f'],
  ['Chemin', 'm'],
  ['Îles', 'fp'],
  ['Nuit', 'f'],
  ['Soleil', 'm'],
  ['Mer', 'f'],
  ['Jardin', 'm'],
  ['Voyage', 'm'],
  ['Silence', 'm'],
  ['Ombre', 'f'],
  ['Fille', 'f'],
  ['Frère', 'm'],
  ['Sœur', 'f'],
  ['Maison', 'f'],
  ['Vent', 'm'],
  ['Fleuve', 'm'],
  ['Épreuve', 'f'],
  ['Crépuscule', 'm'],
  ['Orage', 'm'],
  ['Aube', 'f'],
  ['Colère', 'f'],
  ['Tempête', 'f'],
  ['Phare', 'm'],
  ['Falaise', 'f'],
  ['Lettre', 'f'],
  ['Miroir', 'm'],
  ['Danseuse', 'f'],
  ['Étranger', 'm'],
  ['Ténèbres', 'fp'],
  ['Rêves', 'mp'],
  ['Amants', 'mp'],
  ['Loups', 'mp'],
  ['Enfants', 'mp'],
  ['Oiseaux', 'mp'],
  ['Neige', 'f'],
  ['Pluie', 'f'],
  ['Cendres', 'fp'],
  ['Printemps', 'm'],
  ['Automne', 'm'],
  ['Bal', 'm'],
  ['Mariage', 'm'],
  ['Garçon', 'm'],
  ['Musée', 'm'],
  ['Gare', 'f'],
  ['Vérité', 'f'],
];
const FR_ADJECTIVES: readonly [string, string, string, string][] = [
  ['Perdu', 'Perdue', 'Perdus', 'Perdues'],
  ['Noir', 'Noire', 'Noirs', 'Noires'],
  ['Blanc', 'Blanche', 'Blancs', 'Blanches'],
  ['Dernier', 'Dernière', 'Derniers', 'Dernières'],
  ['Secret', 'Secrète', 'Secrets', 'Secrètes'],
  ['Éternel', 'Éternelle', 'Éternels', 'Éternelles'],
  ['Oublié', 'Oubliée', 'Oubliés', 'Oubliées'],
  ['Brûlé', 'Brûlée', 'Brûlés', 'Brûlées'],
  ['Silencieux', 'Silencieuse', 'Silencieux', 'Silencieuses'],
  ['Profond', 'Profonde', 'Profonds', 'Profondes'],
  ['Endormi', 'Endormie', 'Endormis', 'Endormies'],
  ['Interdit', 'Interdite', 'Interdits', 'Interdites'],
  ['Sauvage', 'Sauvage', 'Sauvages', 'Sauvages'],
  ['Fragile', 'Fragile', 'Fragiles', 'Fragiles'],
  ['Étrange', 'Étrange', 'Étranges', 'Étranges'],
];
const FR_PLACES = [
  'Marseille',
  'Lyon',
  'Besançon',
  'Orléans',
  'Nîmes',
  'Brest',
  'Calais',
  'Toulon',
  'Grenoble',
  'Saint-Malo',
  'Honfleur',
  'Arles',
];
const ES_NOUNS: readonly [string, Gender][] = [
  ['Laberinto', 'm'],
  ['Sol', 'm'],
  ['Noche', 'f'],
  ['Silencio', 'm'],
  ['Canción', 'f'],
  ['Corazón', 'm'],
  ['Montaña', 'f'],
  ['Jardín', 'm'],
  ['Lluvia', 'f'],
  ['Niño', 'm'],
  ['Río', 'm'],
  ['Isla', 'f'],
  ['Camino', 'm'],
  ['Sombra', 'f'],
  ['Espejo', 'm'],
  ['Herida', 'f'],
  ['Verano', 'm'],
  ['Invierno', 'm'],
  ['Mar', 'm'],
  ['Luna', 'f'],
  ['Fuego', 'm'],
  ['Ciudad', 'f'],
  ['Hermano', 'm'],
  ['Hermana', 'f'],
  ['Memoria', 'f'],
  ['Ventana', 'f'],
  ['Tierra', 'f'],
  ['Viento', 'm'],
  ['Sueños', 'mp'],
  ['Lobos', 'mp'],
  ['Olvido', 'm'],
  ['Puerta', 'f'],
  ['Desierto', 'm'],
  ['Tormenta', 'f'],
  ['Ladrón', 'm'],
  ['Reina', 'f'],
  ['Pájaros', 'mp'],
  ['Cenizas', 'fp'],
  ['Huérfano', 'm'],
  ['Tiburón', 'm'],
  ['Colmena', 'f'],
  ['Cosecha', 'f'],
  ['Balcón', 'm'],
  ['Días', 'mp'],
];
const ES_ADJECTIVES: readonly [string, string, string, string][] = [
  ['Perdido', 'Perdida', 'Perdidos', 'Perdidas'],
  ['Oscuro', 'Oscura', 'Oscuros', 'Oscuras'],
  ['Dormido', 'Dormida', 'Dormidos', 'Dormidas'],
  ['Olvidado', 'Olvidada', 'Olvidados', 'Olvidadas'],
  ['Prohibido', 'Prohibida', 'Prohibidos', 'Prohibidas'],
  ['Salvaje', 'Salvaje', 'Salvajes', 'Salvajes'],
  ['Eterno', 'Eterna', 'Eternos', 'Eternas'],
  ['Silencioso', 'Silenciosa', 'Silenciosos', 'Silenciosas'],
  ['Quemado', 'Quemada', 'Quemados', 'Quemadas'],
  ['Rojo', 'Roja', 'Rojos', 'Rojas'],
  ['Frío', 'Fría', 'Fríos', 'Frías'],
  ['Último', 'Última', 'Últimos', 'Últimas'],
];
const ES_PLACES = [
  'Sevilla',
  'Cádiz',
  'Córdoba',
  'Mérida',
  'Valparaíso',
  'Bogotá',
  'Asunción',
  'Oaxaca',
  'Cuzco',
  'Málaga',
  'Rosario',
  'Tucumán',
];
/** German nouns: nominative and genitive with their articles. */
const DE_NOUNS: readonly [string, string][] = [
  ['der Wald', 'des Waldes'],
  ['die Stadt', 'der Stadt'],
  ['das Meer', 'des Meeres'],
  ['die Nacht', 'der Nacht'],
  ['der Fluss', 'des Flusses'],
  ['das Leben', 'des Lebens'],
  ['die Brücke', 'der Brücke'],
  ['der Traum', 'des Traumes'],
  ['das Mädchen', 'des Mädchens'],
  ['die Wölfe', 'der Wölfe'],
  ['das Glück', 'des Glücks'],
  ['der Sommer', 'des Sommers'],
  ['die Stille', 'der Stille'],
  ['das Schweigen', 'des Schweigens'],
  ['der Spiegel', 'des Spiegels'],
  ['die Fremde', 'der Fremde'],
  ['die Schwestern', 'der Schwestern'],
  ['der Zug', 'des Zuges'],
  ['die Erinnerung', 'der Erinnerung'],
  ['das Haus', 'des Hauses'],
  ['die Insel', 'der Insel'],
  ['der Mörder', 'des Mörders'],
  ['die Kinder', 'der Kinder'],
  ['das Feuer', 'des Feuers'],
  ['die Grenze', 'der Grenze'],
  ['der Himmel', 'des Himmels'],
  ['die Jäger', 'der Jäger'],
  ['das Gedächtnis', 'des Gedächtnisses'],
  ['die Straße', 'der Straße'],
  ['der Turm', 'des Turmes'],
  ['die Träume', 'der Träume'],
  ['das Tor', 'des Tores'],
  ['die Mühle', 'der Mühle'],
  ['der Bäcker', 'des Bäckers'],
];
const DE_PLACES = ['Lübeck', 'Köln', 'Düsseldorf', 'Zürich', 'München', 'Graz', 'Bremen', 'Kassel', 'Rostock', 'Görlitz', 'Würzburg'];
/** Italian nouns and their article: il, lo, la, l'm, l'f, i, gli, le. */
const IT_NOUNS: readonly [string, string][] = [
  ['Giardino', 'il'],
  ['Notte', 'la'],
  ['Specchio', 'lo'],
  ['Isola', "l'f"],
  ['Lupi', 'i'],
  ['Anni', 'gli'],
  ['Stelle', 'le'],
  ['Città', 'la'],
  ['Libertà', 'la'],
  ['Verità', 'la'],
  ['Silenzio', 'il'],
  ['Fiume', 'il'],
  ['Strada', 'la'],
  ['Sogno', 'il'],
  ['Luna', 'la'],
  ['Vento', 'il'],
  ['Memoria', 'la'],
  ['Estate', "l'f"],
  ['Inverno', "l'm"],
  ['Mare', 'il'],
  ['Tempesta', 'la'],
  ['Treno', 'il'],
  ['Casa', 'la'],
  ['Ritorno', 'il'],
  ['Ragazza', 'la'],
  ['Fratello', 'il'],
  ['Sorelle', 'le'],
  ['Figli', 'i'],
  ['Amanti', 'gli'],
  ['Caduta', 'la'],
  ['Segreto', 'il'],
  ['Pioggia', 'la'],
  ['Ladro', 'il'],
  ['Regina', 'la'],
  ['Caffè', 'il'],
  ['Ombra', "l'f"],
  ['Voce', 'la'],
  ['Deserto', 'il'],
  ['Zingari', 'gli'],
  ['Gelosia', 'la'],
];
const IT_ADJECTIVES: readonly [string, string, string, string][] = [
  ['Perduto', 'Perduta', 'Perduti', 'Perdute'],
  ['Nero', 'Nera', 'Neri', 'Nere'],
  ['Eterno', 'Eterna', 'Eterni', 'Eterne'],
  ['Dimenticato', 'Dimenticata', 'Dimenticati', 'Dimenticate'],
  ['Proibito', 'Proibita', 'Proibiti', 'Proibite'],
  ['Selvaggio', 'Selvaggia', 'Selvaggi', 'Selvagge'],
  ['Rosso', 'Rossa', 'Rossi', 'Rosse'],
  ['Bianco', 'Bianca', 'Bianchi', 'Bianche'],
  ['Silenzioso', 'Silenziosa', 'Silenziosi', 'Silenziose'],
  ['Addormentato', 'Addormentata', 'Addormentati', 'Addormentate'],
];
const IT_PLACES = ['Napoli', 'Torino', 'Palermo', 'Trieste', 'Cagliari', 'Forlì', 'Cantù', 'Bari', 'Lecce', 'Mantova', 'Ravenna'];

// Words the templates add around the lists' words.
const TEMPLATE_WORDS =
  'the of in a an and for to from on at & part chapter le la les l du de des et sans un une à après el los las del y sin ' +
  'en después der die das des und von am ende jenseits im schatten il lo gli i dei degli della dello delle dell di e ' +
  'senza dopo una uno';

// ---------------------------------------------------------------------------------------------
// People: first names and surnames of their own, none a word of any title nor the start of one.

const FIRST_NAMES = [
  'Aaron',
  'Abigail',
  'Adrian',
  'Agnès',
  'Aidan',
  'Alba',
  'Alejandro',
  'Alena',
  'Alistair',
  'Amara',
  'Ambrose',
  'Anders',
  'Anouk',
  'Ansel',
  'Anton',
  'Ariadne',
  'Astrid',
  'August',
  'Aurelio',
  'Beatriz',
  'Benedikt',
  'Bettina',
  'Bram',
  'Bruno',
  'Callum',
  'Camille',
  'Carmen',
  'Casimir',
  'Cecilia',
  'Cedric',
  'Cormac',
  'Dagny',
  'Dalia',
  'Damian',
  'Dario',
  'Delphine',
  'Desmond',
  'Dorothea',
  'Eamon',
  'Edgar',
  'Elif',
  'Elodie',
  'Emeric',
  'Enzo',
  'Esme',
  'Esteban',
  'Evander',
  'Fabian',
  'Fenna',
  'Fionn',
  'Florian',
  'Freya',
  'Gaspard',
  'Gemma',
  'Gideon',
  'Greta',
  'Gunnar',
  'Hana',
  'Hamish',
  'Hedda',
  'Henrik',
  'Hugo',
  'Idris',
  'Ilse',
  'Imogen',
  'Ingrid',
  'Ione',
  'Isaak',
  'Ivana',
  'Jasper',
  'Joaquín',
  'Jolene',
  'Jorge',
  'Josefine',
  'Katarina',
  'Kofi',
  'Lars',
  'Leandro',
  'Leila',
  'Linnea',
  'Lorcan',
  'Luca',
  'Ludovica',
  'Magnus',
  'Malin',
  'Marisol',
  'Matthias',
  'Maëlle',
  'Mireille',
  'Nadia',
  'Nikolai',
  'Noor',
  'Odile',
  'Olivier',
  'Orla',
  'Pablo',
  'Paloma',
  'Pernille',
  'Quentin',
  'Ragnhild',
  'Rafael',
  'Renata',
  'Rhys',
  'Rosalind',
  'Rufus',
  'Saoirse',
  'Sebastián',
  'Seren',
  'Signe',
  'Silas',
  'Solveig',
  'Stellan',
  'Tamsin',
  'Teodor',
  'Thea',
  'Tobias',
  'Ulrike',
  'Valentina',
  'Viggo',
  'Wilhelmina',
  'Xavier',
  'Yara',
  'Yusuf',
  'Zeynep',
  'Åse',
  'Bjørn',
  'Søren',
  'Jürgen',
  'Inés',
  'Raúl',
  'Ramón',
  'Noémie',
  'Jérôme',
  'Thérèse',
  'François',
  'Gösta',
  'Mårten',
  'Tomás',
  'Darío',
  'Adaeze',
  'Aiko',
  'Anjali',
  'Arjun',
  'Chiara',
  'Dmitri',
  'Emeka',
  'Farida',
  'Giulia',
  'Haruki',
  'Jovana',
  'Kenji',
  'Leilani',
  'Mateus',
  'Nalani',
  'Oksana',
  'Priya',
  'Reza',
  'Sanjay',
  'Tariq',
  'Ulla',
  'Vesna',
  'Wanjiru',
  'Ximena',
  'Yuki',
  'Zoltan',
  'Rowena',
  'Cosima',
  'Lucian',
  'Marguerite',
  'Philippa',
  'Ignatius',
  'Theodora',
  'Lysander',
  'Perpetua',
  'Evangeline',
  'Bastian',
  'Constance',
  'Dominik',
  'Elspeth',
  'Frederik',
  'Gwendolyn',
  'Henrietta',
  'Ivo',
  'Jacinta',
  'Kasper',
  'Leopold',
];
const SURNAMES = [
  'Abernathy',
  'Achterberg',
  'Adeyemi',
  'Albrecht',
  'Alderete',
  'Amundsen',
  'Andersson',
  'Antonelli',
  'Arbogast',
  'Arkwright',
  'Ashdown',
  'Aubert',
  'Avila',
  'Bachmann',
  'Baptiste',
  'Barbosa',
  'Barrington',
  'Bauer',
  'Beaumont',
  'Becker',
  'Bellamy',
  'Benedetti',
  'Bergström',
  'Bianchini',
  'Blanchard',
  'Bogdanov',
  'Bonnaire',
  'Borowski',
  'Bouchard',
  'Brandt',
  'Brennan',
  'Brodeur',
  'Brunner',
  'Buchanan',
  'Castellano',
  'Cavanagh',
  'Chakraborty',
  'Chaudhry',
  'Chevalier',
  'Cifuentes',
  'Claesson',
  'Colby',
  'Constantin',
  'Corcoran',
  'Costa',
  'Crowther',
  'Dahlberg',
  'Dalgaard',
  'Delacroix',
  'Desrosiers',
  'Devereaux',
  'Dimitrov',
  'Donnelly',
  'Draper',
  'Dubois',
  'Dufresne',
  'Eckhart',
  'Edvardsen',
  'Egger',
  'Eklund',
  'Elsworth',
  'Esposito',
  'Estrada',
  'Falkenberg',
  'Fenwick',
  'Ferreira',
  'Figueroa',
  'Fitzgerald',
  'Fleischer',
  'Fontaine',
  'Forsberg',
  'Fournier',
  'Fujimoto',
  'Gallagher',
  'Galvão',
  'Garnier',
  'Gascoigne',
  'Gerhardt',
  'Giordano',
  'Gonçalves',
  'Gottlieb',
  'Granger',
  'Grimaldi',
  'Gustafsson',
  'Haddad',
  'Halvorsen',
  'Hargreaves',
  'Hartmann',
  'Haugen',
  'Hellström',
  'Hendricks',
  'Herrera',
  'Hoffmann',
  'Holloway',
  'Horvath',
  'Huxley',
  'Ibáñez',
  'Iglesias',
  'Ingram',
  'Isaksen',
  'Iwasaki',
  'Jablonski',
  'Jankowski',
  'Jaramillo',
  'Jensen',
  'Jovanović',
  'Kaczmarek',
  'Kaminski',
  'Karlsson',
  'Kauffman',
  'Kavanagh',
  'Kessler',
  'Kiernan',
  'Kowalczyk',
  'Krämer',
  'Kristiansen',
  'Kuznetsov',
  'Lachance',
  'Lafayette',
  'Lambert',
  'Landry',
  'Larsen',
  'Laurent',
  'Lefèvre',
  'Leitner',
  'Lemaire',
  'Lindqvist',
  'Lombardi',
  'Lundgren',
  'Maalouf',
  'MacAllister',
  'Madsen',
  'Magnusson',
  'Mahoney',
  'Maldonado',
  'Marchetti',
  'Marchand',
  'Martel',
  'Mathieson',
  'Mazur',
  'Medeiros',
  'Meissner',
  'Mendoza',
  'Mercier',
  'Moreau',
  'Morrissey',
  'Müller',
  'Nakamura',
  'Navarro',
  'Nielsen',
  'Novak',
  'Núñez',
  'Oberholzer',
  'Okafor',
  'Okonkwo',
  'Olivares',
  'Olsen',
  'Ortega',
  'Østergaard',
  'Pacheco',
  'Pajari',
  'Paquette',
  'Pedersen',
  'Pellegrini',
  'Petrović',
  'Pfeiffer',
  'Pietrowski',
  'Polanco',
  'Prentice',
  'Quintero',
  'Rademacher',
  'Ramírez',
  'Rasmussen',
  'Reinholt',
  'Renaud',
  'Ribeiro',
  'Richter',
  'Rinaldi',
  'Rousseau',
  'Saarinen',
  'Salazar',
  'Sandoval',
  'Santoro',
  'Schäfer',
  'Schreiber',
  'Sandberg',
  'Segal',
  'Sepúlveda',
  'Sievers',
  'Sigurðsson',
  'Sokolov',
  'Solberg',
  'Søndergaard',
  'Spencer',
  'Strandberg',
  'Sullivan',
  'Szabó',
  'Takahashi',
  'Tanaka',
  'Tavares',
  'Thibault',
  'Thorsen',
  'Toivonen',
  'Torres',
  'Trevisan',
  'Ulbricht',
  'Urquhart',
  'Valdés',
  'Vasquez',
  'Vaughan',
  'Vidal',
  'Vogel',
  'Volkov',
  'Wagner',
  'Waldmann',
  'Wallenberg',
  'Weber',
  'Westergaard',
  'Whitaker',
  'Wieczorek',
  'Wilhelmsen',
  'Winslow',
  'Wojcik',
  'Yamamoto',
  'Yilmaz',
  'Zamora',
  'Zeller',
  'Zielinski',
  'Zimmermann',
  'Zúñiga',
  'Achebe',
  'Adebayo',
  'Agarwal',
  'Akhtar',
  'Alvarado',
  'Anand',
  'Aranda',
  'Arslan',
  'Azevedo',
  'Balogun',
  'Banerjee',
  'Barros',
  'Bashir',
  'Bhattacharya',
  'Bocanegra',
  'Cardoso',
  'Carvalho',
  'Castaño',
  'Cervantes',
  'Çelik',
  'Chopra',
  'Coelho',
  'Dąbrowski',
  'Demir',
  'Desai',
  'Domínguez',
  'Doğan',
  'Eriksen',
  'Espinoza',
  'Farouk',
  'Fonseca',
  'Gajewski',
  'Gallardo',
  'Guerrero',
  'Gutiérrez',
  'Hashemi',
  'Hosseini',
  'Ibrahim',
  'Iyer',
  'Jiménez',
  'Kapoor',
  'Karimi',
  'Kaya',
  'Khoury',
  'Kobayashi',
  'Koval',
  'Kuroda',
  'Lozano',
  'Machado',
  'Malhotra',
  'Mansour',
  'Matsumoto',
  'Menon',
  'Mbeki',
  'Mwangi',
  'Nascimento',
  'Nwosu',
  'Obi',
  'Ogawa',
  'Okoye',
  'Osei',
  'Özdemir',
  'Pereira',
  'Pinheiro',
  'Quiroga',
  'Rahman',
  'Rojas',
  'Sahin',
  'Saito',
  'Salgado',
  'Santana',
  'Sasaki',
  'Serrano',
  'Shapiro',
  'Sharma',
  'Siddiqui',
  'Sousa',
  'Suárez',
  'Suzuki',
  'Teixeira',
  'Toledo',
  'Uchenna',
  'Valenzuela',
  'Varga',
  'Vieira',
  'Wiśniewski',
  'Yoshida',
  'Zapata',
  'Abendroth',
  'Brückner',
  'Dörfler',
  'Fässler',
  'Göransson',
  'Hjørring',
  'Jäckel',
  'Kühn',
  'Löfgren',
  'Mäkinen',
  'Nyström',
  'Öberg',
  'Pöhlmann',
  'Rösler',
  'Sjöberg',
  'Tørresen',
  'Wåhlin',
  'Aldridge',
  'Blakemore',
  'Cartwright',
  'Dunleavy',
  'Eversley',
  'Fairweather',
  'Galbraith',
  'Hathersage',
  'Inchbald',
  'Jellicoe',
  'Kettering',
  'Lockhart',
  'Mountjoy',
  'Netherton',
  'Ormerod',
  'Pemberton',
  'Quayle',
  'Rathbone',
  'Sedgwick',
  'Thackeray',
  'Uttley',
  'Varley',
  'Wetherby',
  'Yardley',
  'Ackroyd',
  'Babcock',
  'Carrington',
  'Dimbleby',
  'Entwistle',
  'Featherstone',
  'Gorringe',
  'Hollingsworth',
  'Illingworth',
  'Kershaw',
  'Leadbetter',
  'Mottram',
  'Nuttall',
  'Oglethorpe',
  'Pilkington',
  'Ramsbottom',
  'Scholes',
  'Tattersall',
  'Umfreville',
  'Wadsworth',
  'Cesarini',
  'Dellapiana',
  'Ferrante',
  'Guarneri',
  'Lanfranchi',
  'Mastroianni',
  'Ottaviani',
  'Pagliarulo',
  'Quagliarella',
  'Santangelo',
  'Tramontana',
  'Vitale',
  'Zanetti',
  'Abascal',
  'Berganza',
  'Cuadrado',
  'Echeverría',
  'Fajardo',
  'Goicoechea',
  'Larrañaga',
  'Mondragón',
  'Ochoa',
  'Urrutia',
];

// ---------------------------------------------------------------------------------------------
// Vocabularies, checked once: person words must be no word of a title nor the start of one (so a
// name typed is about people only), and no person word may start another.

interface Vocabulary {
  firstNames: string[];
  surnames: string[];
}
let vocabulary: Vocabulary | undefined;

const titleVocabulary = (): Set<string> => {
  const texts: string[] = [
    ...ADJECTIVES,
    ...NOUNS,
    ...PLURALS,
    ...PLACES,
    ...CHARACTERS,
    ...ONE_WORD_TITLES,
    ...GERUNDS,
    ...GERUNDS_FOR,
    ...NUMBERS,
    ...SUBTITLES,
    ...PREPOSITIONS,
    ...TO_PLACE,
    ...ACCENTED_WORDS,
    ...ACCENTED_PLACES,
    ...ACCENTED_CHARACTERS,
    ...Object.values(SYNONYMS).flat(),
    ...WORKING_TITLES,
    ...WORKING_SUFFIXES,
    ...FR_NOUNS.map(([n]) => n),
    ...FR_ADJECTIVES.flat(),
    ...FR_PLACES,
    ...ES_NOUNS.map(([n]) => n),
    ...ES_ADJECTIVES.flat(),
    ...ES_PLACES,
    ...DE_NOUNS.flat(),
    ...DE_PLACES,
    ...IT_NOUNS.map(([n]) => n),
    ...IT_ADJECTIVES.flat(),
    ...IT_PLACES,
    TEMPLATE_WORDS,
    ...ROMAN,
    'Harbour Honour Theatre Parlour Rumour Armour Valour',
  ];
  const words = new Set<string>();
  for (const text of texts) for (const w of [...fold(text), ...foldAtApostrophes(text)]) words.add(w);
  return words;
};

const getVocabulary = (): Vocabulary => {
  if (vocabulary) return vocabulary;
  const titleWords = [...titleVocabulary()];
  const clashesWithTitles = (w: string) => titleWords.some((t) => t.startsWith(w));
  const firstFolded = new Set(FIRST_NAMES.map((n) => fold(n).join('')));
  const keep = (list: readonly string[], others: readonly string[], notIn: Set<string>) => {
    const allFolded = [...list, ...others].map((n) => fold(n).join(''));
    return [...new Set(list)].filter((name) => {
      const words = fold(name);
      if (words.length !== 1) return false;
      const w = words[0]!;
      if (notIn.has(w) || clashesWithTitles(w)) return false;
      return !allFolded.some((o) => o !== w && o.startsWith(w));
    });
  };
  const firstNames = keep(FIRST_NAMES, SURNAMES, new Set());
  const surnames = keep(SURNAMES, FIRST_NAMES, firstFolded);
  vocabulary = { firstNames, surnames };
  return vocabulary;
};

// ---------------------------------------------------------------------------------------------
// The catalogue.

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const join = (...parts: string[]) =>
  parts
    .filter((p) => p !== '')
    .join(' ')
    .replace(/' /gu, "'");

class TitleMaker {
  private readonly oneWord: string[];
  constructor(private readonly dice: Dice) {
    this.oneWord = dice.shuffle([...ONE_WORD_TITLES]);
  }

  private two<T>(list: readonly T[]): [T, T] {
    const a = this.dice.pick(list);
    let b = this.dice.pick(list);
    while (b === a) b = this.dice.pick(list);
    return [a, b];
  }

  private adjNoun(): string {
    return `${this.dice.pick(ADJECTIVES)} ${this.dice.pick(NOUNS)}`;
  }

  /** A short title a franchise can grow from. */
  short(): string {
    const d = this.dice;
    const r = d.next();
    if (r < 0.15 && this.oneWord.length > 0) return this.oneWord.pop()!;
    if (r < 0.5) return `The ${this.adjNoun()}`;
    if (r < 0.7) return this.adjNoun();
    if (r < 0.85) return `${d.pick(NOUNS)} of ${d.pick(PLACES)}`;
    return `${d.pick(CHARACTERS)}'s ${d.pick(NOUNS)}`;
  }

  plain(): string {
    const d = this.dice;
    const r = d.next() * 100;
    if (r < 2.5 && this.oneWord.length > 0) return this.oneWord.pop()!;
    if (r < 4) return d.pick(d.chance(0.7) ? NOUNS : PLURALS);
    if (r < 16) return `The ${this.adjNoun()}`;
    if (r < 24) return this.adjNoun();
    if (r < 27) return `The ${d.pick(NOUNS)}`;
    if (r < 30) return `${d.pick(ADJECTIVES)} ${d.pick(PLURALS)}`;
    if (r < 36) return `${d.chance(0.5) ? 'The ' : ''}${d.pick(NOUNS)} of ${d.pick(PLACES)}`;
    if (r < 41) {
      const [a, b] = this.two(NOUNS);
      return `${d.chance(0.5) ? 'The ' : ''}${a} of the ${d.pick(ADJECTIVES)} ${b}`;
    }
    if (r < 47) return `${d.pick(CHARACTERS)}'s ${d.pick(NOUNS)}`;
    if (r < 51) return `${this.adjNoun()} in ${d.pick(PLACES)}`;
    if (r < 55) return `${d.pick(GERUNDS)} the ${d.pick(NOUNS)}`;
    if (r < 57) return `${d.pick(GERUNDS_FOR)} ${d.pick(CHARACTERS)}`;
    if (r < 60) {
      const [a, b] = d.chance(0.6) ? this.two(NOUNS) : this.two(CHARACTERS);
      return `${a} & ${b}`;
    }
    if (r < 62) {
      const [a, b] = this.two(PLURALS);
      return `Of ${a} and ${b}`;
    }
    if (r < 69) return `${this.short()}: ${this.subtitle()}`;
    if (r < 72) return `${d.pick(NUMBERS)} ${d.pick(PLURALS)}`;
    if (r < 75) {
      const noun = d.pick(NOUNS);
      return `${/^[AEIOU]/u.test(noun) ? 'An' : 'A'} ${noun} for ${d.pick(CHARACTERS)}`;
    }
    if (r < 78) return `${d.pick(CHARACTERS)} and the ${this.adjNoun()}`;
    if (r < 84) return `${d.pick(PREPOSITIONS)} the ${d.chance(0.4) ? `${d.pick(ADJECTIVES)} ` : ''}${d.pick(NOUNS)}`;
    if (r < 88) return `${d.pick(TO_PLACE)} ${d.pick(PLACES)}`;
    if (r < 91) return `${d.pick(PLACES)} ${d.pick(NOUNS)}`;
    if (r < 94) {
      const [a, b] = this.two(NOUNS);
      return `${a} ${b}`;
    }
    if (r < 97) return `The Last ${d.pick(NOUNS)} of ${d.pick(PLACES)}`;
    return `The ${d.pick(PLURALS)} of ${d.pick(ADJECTIVES)} ${d.pick(NOUNS)}`;
  }

  subtitle(): string {
    const d = this.dice;
    const r = d.next();
    if (r < 0.7) return d.pick(SUBTITLES);
    if (r < 0.8) return `Rise of the ${d.pick(PLURALS)}`;
    if (r < 0.9) return `Legacy of ${d.pick(PLACES)}`;
    return `The ${d.pick(ADJECTIVES)} Years`;
  }

  accented(): string {
    const d = this.dice;
    const r = d.next();
    if (r < 0.2) return `${this.adjNoun()} in ${d.pick(ACCENTED_PLACES)}`;
    if (r < 0.35) return `${d.pick(ACCENTED_CHARACTERS)}'s ${d.pick(NOUNS)}`;
    if (r < 0.5) return `${d.chance(0.5) ? 'The ' : ''}${d.pick(NOUNS)} of ${d.pick(ACCENTED_PLACES)}`;
    if (r < 0.62) return `${d.pick(ACCENTED_WORDS)} ${d.pick(ACCENTED_PLACES)}`;
    if (r < 0.74) return `The ${d.pick(ADJECTIVES)} ${d.pick(ACCENTED_WORDS)}`;
    if (r < 0.84) return `${d.pick(ACCENTED_CHARACTERS)} and the ${d.pick(NOUNS)}`;
    if (r < 0.92) return `${d.pick(TO_PLACE)} ${d.pick(ACCENTED_PLACES)}`;
    return `${d.pick(ACCENTED_CHARACTERS)} & ${d.pick(ACCENTED_CHARACTERS)}`;
  }

  /** An original title in French, Spanish, German or Italian. */
  foreign(): string {
    const d = this.dice;
    const language = d.int(4);
    return cap(language === 0 ? this.french() : language === 1 ? this.spanish() : language === 2 ? this.german() : this.italian());
  }

  private french(): string {
    const d = this.dice;
    const vowel = (w: string) => /^[aeiouhéèêîô]/iu.test(w);
    const art = ([w, g]: [string, Gender]) => (g.endsWith('p') ? 'les' : vowel(w) ? "l'" : g === 'm' ? 'le' : 'la');
    const de = ([w, g]: [string, Gender]) => (g.endsWith('p') ? 'des' : vowel(w) ? "de l'" : g === 'm' ? 'du' : 'de la');
    const adj = (g: Gender) => d.pick(FR_ADJECTIVES)[['m', 'f', 'mp', 'fp'].indexOf(g)]!;
    const [a, b] = this.two(FR_NOUNS);
    const r = d.next();
    if (r < 0.35) return join(art(a), a[0], de(b), b[0]);
    if (r < 0.5) return join(art(a), a[0], 'et', art(b), b[0]);
    if (r < 0.62) return join(art(a), a[0], 'de', d.pick(FR_PLACES));
    if (r < 0.72 && !a[1].endsWith('p')) return join(a[1] === 'm' ? 'Un' : 'Une', a[0], 'à', d.pick(FR_PLACES));
    if (r < 0.8) return join('Après', art(a), a[0]);
    if (r < 0.88) return join(art(a), a[0], 'sans', b[0]);
    return join(art(a), a[0], adj(a[1]));
  }

  private spanish(): string {
    const d = this.dice;
    const art = (g: Gender) => ({ m: 'el', f: 'la', mp: 'los', fp: 'las' })[g];
    const de = (g: Gender) => ({ m: 'del', f: 'de la', mp: 'de los', fp: 'de las' })[g];
    const adj = (g: Gender) => d.pick(ES_ADJECTIVES)[['m', 'f', 'mp', 'fp'].indexOf(g)]!;
    const [a, b] = this.two(ES_NOUNS);
    const r = d.next();
    if (r < 0.35) return join(art(a[1]), a[0], de(b[1]), b[0]);
    if (r < 0.5) return join(art(a[1]), a[0], 'y', art(b[1]), b[0]);
    if (r < 0.62) return join(art(a[1]), a[0], 'de', d.pick(ES_PLACES));
    if (r < 0.72 && !a[1].endsWith('p')) return join(a[1] === 'm' ? 'Un' : 'Una', a[0], 'en', d.pick(ES_PLACES));
    if (r < 0.8) return join('Después', de(a[1]), a[0]);
    if (r < 0.88) return join(art(a[1]), a[0], 'sin', b[0]);
    return join(art(a[1]), a[0], adj(a[1]));
  }

  private german(): string {
    const d = this.dice;
    const noun = (phrase: string) => phrase.replace(/ (\p{L})/u, (_, c: string) => ` ${c.toUpperCase()}`);
    const [a, b] = this.two(DE_NOUNS);
    const r = d.next();
    if (r < 0.4) return join(noun(a[0]), noun(b[1]));
    if (r < 0.55) return join(noun(a[0]), 'und', noun(b[0]));
    if (r < 0.7) return join(noun(a[0]), 'von', d.pick(DE_PLACES));
    if (r < 0.8) return join('Am Ende', noun(b[1]));
    if (r < 0.9) return join('Jenseits', noun(b[1]));
    return join('Im Schatten', noun(b[1]));
  }

  private italian(): string {
    const d = this.dice;
    const ARTICLE: Record<string, string> = { il: 'il', lo: 'lo', la: 'la', "l'm": "l'", "l'f": "l'", i: 'i', gli: 'gli', le: 'le' };
    const OF: Record<string, string> = {
      il: 'del',
      lo: 'dello',
      la: 'della',
      "l'm": "dell'",
      "l'f": "dell'",
      i: 'dei',
      gli: 'degli',
      le: 'delle',
    };
    const GENDER: Record<string, number> = { il: 0, lo: 0, "l'm": 0, la: 1, "l'f": 1, i: 2, gli: 2, le: 3 };
    const adj = (article: string) => d.pick(IT_ADJECTIVES)[GENDER[article] ?? 0]!;
    const [a, b] = this.two(IT_NOUNS);
    const r = d.next();
    if (r < 0.35) return join(ARTICLE[a[1]]!, a[0], OF[b[1]]!, b[0]);
    if (r < 0.5) return join(ARTICLE[a[1]]!, a[0], 'e', ARTICLE[b[1]]!, b[0]);
    if (r < 0.62) return join(ARTICLE[a[1]]!, a[0], 'di', d.pick(IT_PLACES));
    if (r < 0.72 && (GENDER[a[1]] ?? 2) < 2)
      return join(a[1] === "l'f" ? "Un'" : GENDER[a[1]] === 1 ? 'Una' : 'Un', a[0], 'a', d.pick(IT_PLACES));
    if (r < 0.8) return join('Dopo', ARTICLE[a[1]]!, a[0]);
    if (r < 0.88) return join(ARTICLE[a[1]]!, a[0], 'senza', b[0]);
    return join(ARTICLE[a[1]]!, a[0], adj(a[1]));
  }

  /** Other English names for a title: a synonym or British spelling put in, or a working title. */
  alternative(title: string): string {
    const d = this.dice;
    const words = title.split(' ');
    const swappable = words.map((w, i) => [w.replace(/[:'].*$/u, ''), i] as const).filter(([w]) => SYNONYMS[w] !== undefined);
    const r = d.next();
    if (r < 0.55 && swappable.length > 0) {
      const [word, at] = d.pick(swappable);
      const copy = [...words];
      copy[at] = copy[at]!.replace(word, d.pick(SYNONYMS[word]!));
      return copy.join(' ');
    }
    const colon = title.indexOf(': ');
    if (colon > 0 && (r < 0.65 || r > 0.9)) return `${title.slice(0, colon)}: ${this.subtitle()}`;
    const noun = d.pick(NOUNS);
    const s = d.next();
    if (s < 0.3) return `${d.pick(WORKING_TITLES)} ${noun}`;
    if (s < 0.5) return `Operation ${this.adjNoun()}`;
    if (s < 0.7) return `The ${noun} ${d.pick(WORKING_SUFFIXES)}`;
    if (s < 0.85) return `Untitled ${noun} Project`;
    return `${title.replace(/^The /u, '')}: ${this.subtitle()}`;
  }
}

interface Person {
  name: string;
}

const makePeople = (dice: Dice, size: number): Person[] => {
  const { firstNames, surnames } = getVocabulary();
  const seen = new Set<string>();
  const people: Person[] = [];
  for (let attempt = 0; people.length < size && attempt < size * 20; attempt++) {
    // Surnames are shared unevenly, as in life: a few are common, most rare.
    const surname = surnames[attempt < size * 10 ? dice.skewed(surnames.length, 1.3) : dice.int(surnames.length)]!;
    const name = `${dice.pick(firstNames)} ${surname}`;
    const key = fold(name).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    people.push({ name });
  }
  return people;
};

const FIRST_YEAR = 1920;
const LAST_YEAR = 2025;
const ADDED_FROM = Date.UTC(2016, 0, 1);
const ADDED_TO = Date.UTC(2025, 11, 31);

/**
 * `count` films and shows, the same for the same seed: about 85% films; titles from templates
 * over several hundred words (one-word titles, subtitles after a colon, "&"), some remade
 * (~1%), some in franchises (~4%), some accented (~8%); ~10% of films with an original title in
 * another language, ~10% of items with alternative titles; each credited with people from a
 * pool of about 0.3 per title, some of them in many items.
 */
export function searchCatalogue(count: number, seed: number = CATALOGUE_SEED): Searchable[] {
  const dice = new Dice(seed);
  const titles = new TitleMaker(dice);
  const pool = makePeople(dice, Math.max(40, Math.round(count * 0.32)));
  // Directors and creators come from one part of the pool, cast from the rest. In each part a few
  // are in many items, most in several, and a long tail in a handful (at 10,000 titles: the
  // busiest actors in ~150, the tail in ~3).
  const directors = Math.max(10, Math.round(pool.length * 0.25));
  const items: Searchable[] = [];
  const taken = new Set<string>(); // joined and bare forms of every title so far
  const remakable: { title: string; type: Searchable['type']; years: number[] }[] = [];
  const counters = { movie: 0, tvshow: 0 };

  const keysOf = (title: string) => {
    const words = fold(title);
    return [`=${words.join('')}`, `~${bareOf(words)}`];
  };
  const isFree = (title: string) => fold(title).length > 0 && keysOf(title).every((k) => !taken.has(k));
  const take = (title: string) => keysOf(title).forEach((k) => taken.add(k));
  const fresh = (make: () => string): string | undefined => {
    for (let i = 0; i < 40; i++) {
      const title = make();
      if (isFree(title)) return title;
    }
    return undefined;
  };
  const credits = (type: Searchable['type']): string[] => {
    const chosen = new Set<number>();
    const leads = type === 'movie' ? 1 : dice.between(1, 2);
    while (chosen.size < leads) chosen.add(dice.tiered(directors, [0.05, 0.45, 0.5], [0.2, 0.6, 0.2]));
    const cast = dice.between(3, 5);
    while (chosen.size < leads + cast)
      chosen.add(directors + dice.tiered(pool.length - directors, [0.017, 0.15, 0.5, 0.333], [0.16, 0.39, 0.39, 0.06]));
    return [...chosen].map((i) => pool[i]!.name);
  };
  const push = (type: Searchable['type'], title: string, year: number, originalTitle: string | null) => {
    const n = ++counters[type];
    const id = `${type === 'movie' ? 'm' : 's'}${String(n).padStart(6, '0')}`;
    const addedAt = new Date(ADDED_FROM + Math.floor(dice.next() * (ADDED_TO - ADDED_FROM))).toISOString();
    const item: Searchable = { id, type, title, originalTitle, year, addedAt };
    if (dice.chance(0.1)) {
      const alternatives: string[] = [];
      const own = new Set([title, originalTitle ?? ''].map((t) => fold(t).join('')));
      const wanted = [1, 1, 1, 1, 1, 2, 2, 2, 3, 4][dice.int(10)]!;
      for (let i = 0; i < wanted * 4 && alternatives.length < wanted; i++) {
        const alternative = titles.alternative(title);
        const key = fold(alternative).join('');
        if (own.has(key)) continue;
        own.add(key);
        alternatives.push(alternative);
      }
      if (alternatives.length > 0) item.alternativeTitles = alternatives;
    }
    item.people = credits(type);
    items.push(item);
  };
  const someYear = () => FIRST_YEAR + Math.floor((LAST_YEAR - FIRST_YEAR + 1) * dice.next() ** 0.6);
  const originalFor = (type: Searchable['type'], title: string) => {
    if (type === 'movie' && dice.chance(0.1)) {
      for (let i = 0; i < 10; i++) {
        const original = titles.foreign();
        if (fold(original).join('') !== fold(title).join('')) return original;
      }
    }
    return dice.chance(0.5) ? title : null;
  };

  while (items.length < count) {
    const r = dice.next();
    if (r < 0.01 && remakable.length > 20) {
      // A remake: an earlier title again, at least three years from each of its versions.
      const original = remakable[dice.int(remakable.length)]!;
      const newest = Math.max(...original.years);
      const oldest = Math.min(...original.years);
      const year =
        newest + 3 <= LAST_YEAR
          ? dice.between(newest + 3, Math.min(LAST_YEAR, newest + 40))
          : oldest - 3 >= FIRST_YEAR
            ? dice.between(Math.max(FIRST_YEAR, oldest - 40), oldest - 3)
            : undefined;
      if (year === undefined) continue;
      original.years.push(year);
      push(original.type, original.title, year, dice.chance(0.5) ? original.title : null);
      continue;
    }
    if (r < 0.0235 && count - items.length >= 2) {
      // A franchise: "X", "X 2" or "X II", "X 3" or "X III", "X: Part IV" or "X 4", years rising.
      const base = fresh(() => titles.short());
      if (base === undefined) continue;
      const roman = dice.chance(0.4);
      const length = Math.min(count - items.length, dice.between(2, 4));
      let year = dice.between(1955, 2012);
      for (let part = 1; part <= length; part++) {
        const title =
          part === 1
            ? base
            : part === 4
              ? roman || dice.chance(0.5)
                ? `${base}: Part IV`
                : `${base} 4`
              : `${base} ${roman ? ROMAN[part - 2]!.toUpperCase() : part}`;
        take(title);
        push('movie', title, Math.min(year, LAST_YEAR), originalFor('movie', title));
        year += dice.between(2, 5);
      }
      continue;
    }
    const type = dice.chance(0.85) ? 'movie' : 'tvshow';
    const title = fresh(() => (dice.chance(0.075) ? titles.accented() : titles.plain()));
    if (title === undefined) continue;
    take(title);
    const year = someYear();
    remakable.push({ title, type, years: [year] });
    push(type, title, year, originalFor(type, title));
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Looking things up in a catalogue: every name of every item (title, original title, alternative
// titles) folded, and the people credited.

type Field = 'title' | 'original' | 'alternative';

interface Name {
  item: number;
  field: Field;
  text: string;
  words: string[];
  joined: string;
  bare: string;
  tokens: string[];
  /** Words and the halves of apostrophe words: what a word with a typo is compared with. */
  plainWords: string[];
}

const lowerBound = (sorted: readonly string[], key: string) => {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
/** [lo, hi) of the sorted strings starting with `prefix`. */
const prefixRange = (sorted: readonly string[], prefix: string): [number, number] => [
  lowerBound(sorted, prefix),
  lowerBound(sorted, `${prefix}\uffff`),
];

/** One edit or none from the word, or (for the word being typed) from the start of it. */
const nearWord = (query: string, word: string, typing: boolean) => {
  if (editsWithin(query, word, 1) <= 1) return true;
  if (!typing) return false;
  for (let length = query.length - 1; length <= query.length + 1; length++) {
    if (length > 0 && length < word.length && editsWithin(query, word.slice(0, length), 1) <= 1) return true;
  }
  return false;
};

class Lookup {
  readonly names: Name[] = [];
  readonly namesOf: number[][] = [];
  readonly byJoined = new Map<string, number[]>();
  readonly byBare = new Map<string, number[]>();
  /** Names sorted by joined form, and by bare form, for prefixes. */
  readonly joinedSorted: string[];
  readonly joinedNames: number[];
  readonly bareSorted: string[];
  readonly bareNames: number[];
  /** Every token of every name, sorted, with the names holding it. */
  readonly tokens: string[];
  readonly tokenNames: number[][];
  readonly tokenSet: Set<string>;
  /** Plain words of every name, for words with a typo. */
  readonly words: string[];
  readonly wordNames = new Map<string, number[]>();
  /** Folded full name → the person as credited and the items. */
  readonly people = new Map<string, { name: string; words: string[]; items: number[] }>();
  readonly surnames = new Map<string, number[]>();
  readonly personWords = new Set<string>();
  readonly peopleList: { name: string; words: string[]; items: number[] }[];
  readonly index = new Map<string, number>();

  constructor(readonly items: readonly Searchable[]) {
    const tokenNames = new Map<string, number[]>();
    const credited = new Map<string, { name: string; words: string[]; items: number[] }>(); // by the name as credited
    const add = <K>(map: Map<K, number[]>, key: K, value: number) => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [value]);
      else if (list.at(-1) !== value) list.push(value);
    };
    items.forEach((item, at) => {
      this.index.set(item.id, at);
      const own: number[] = [];
      const texts: [Field, string][] = [['title', item.title]];
      if (item.originalTitle !== null) texts.push(['original', item.originalTitle]);
      for (const t of item.alternativeTitles ?? []) texts.push(['alternative', t]);
      for (const [field, text] of texts) {
        const words = fold(text);
        if (words.length === 0) continue;
        const id = this.names.length;
        const plainWords = plainWordsOf(text, words);
        const tokens = tokensOf(plainWords, words);
        this.names.push({ item: at, field, text, words, joined: words.join(''), bare: bareOf(words), tokens, plainWords });
        own.push(id);
        add(this.byJoined, words.join(''), id);
        add(this.byBare, bareOf(words), id);
        for (const t of tokens) add(tokenNames, t, id);
        for (const w of plainWords) add(this.wordNames, w, id);
      }
      this.namesOf.push(own);
      for (const person of item.people ?? []) {
        let entry = credited.get(person);
        if (entry === undefined) {
          const words = fold(person);
          const key = words.join(' ');
          entry = this.people.get(key);
          if (entry === undefined) this.people.set(key, (entry = { name: person, words, items: [] }));
          credited.set(person, entry);
          for (const w of words) this.personWords.add(w);
        }
        if (entry.items.at(-1) !== at) entry.items.push(at);
        add(this.surnames, entry.words.at(-1)!, at);
      }
    });
    const sortedBy = (key: (n: Name) => string) => {
      const keys = this.names.map(key);
      const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
      return [order.map((i) => keys[i]!), order] as const;
    };
    [this.joinedSorted, this.joinedNames] = sortedBy((n) => n.joined);
    [this.bareSorted, this.bareNames] = sortedBy((n) => n.bare);
    this.tokens = [...tokenNames.keys()].sort();
    this.tokenNames = this.tokens.map((t) => tokenNames.get(t)!);
    this.tokenSet = new Set(this.tokens);
    this.words = [...this.wordNames.keys()];
    this.peopleList = [...this.people.values()];
  }

  itemsOfNames(names: Iterable<number>): Set<number> {
    const found = new Set<number>();
    for (const n of names) found.add(this.names[n]!.item);
    return found;
  }

  /** Items with a name of exactly these words. */
  same(words: readonly string[]): Set<number> {
    return this.itemsOfNames(this.byJoined.get(words.join('')) ?? []);
  }

  /** Items a search may take for the whole name: the same words, or the same without a leading article. */
  sameLoosely(words: readonly string[]): Set<number> {
    return new Set([...this.same(words), ...this.itemsOfNames(this.byBare.get(bareOf(words)) ?? [])]);
  }

  /** Items with a name starting with the words run together, with or without a leading article. */
  startingLoosely(words: readonly string[]): Set<number> {
    const found = new Set<number>();
    const [a, b] = prefixRange(this.joinedSorted, words.join(''));
    for (let i = a; i < b; i++) found.add(this.names[this.joinedNames[i]!]!.item);
    const [c, d] = prefixRange(this.bareSorted, bareOf(words));
    for (let i = c; i < d; i++) found.add(this.names[this.bareNames[i]!]!.item);
    return found;
  }

  /** Names holding a token that starts with the word. */
  namesStarting(word: string): number[] {
    const [a, b] = prefixRange(this.tokens, word);
    const found = new Set<number>();
    for (let i = a; i < b; i++) for (const n of this.tokenNames[i]!) found.add(n);
    return [...found];
  }

  /** How far a name is from holding every query word: 0 each starts a token; 1 one word is an edit off; 2 more. */
  cost(name: Name, words: readonly string[]): number {
    let cost = 0;
    words.forEach((w, i) => {
      if (cost > 1 || name.tokens.some((t) => t.startsWith(w))) return;
      cost += name.plainWords.some((p) => nearWord(w, p, i === words.length - 1)) ? 1 : 2;
    });
    return Math.min(cost, 2);
  }

  /** Names that may hold the word within one edit (candidates for `cost`). */
  namesNear(word: string, typing: boolean): number[] {
    const found = new Set<number>(this.namesStarting(word));
    for (const w of this.words) if (nearWord(word, w, typing)) for (const n of this.wordNames.get(w)!) found.add(n);
    return [...found];
  }
}

// ---------------------------------------------------------------------------------------------
// The queries.

const KEYBOARD_NEIGHBOURS: Readonly<Record<string, string>> = {
  q: 'wa',
  w: 'qeas',
  e: 'wrsd',
  r: 'etdf',
  t: 'ryfg',
  y: 'tugh',
  u: 'yihj',
  i: 'uojk',
  o: 'ipkl',
  p: 'ol',
  a: 'qwsz',
  s: 'awedxz',
  d: 'serfcx',
  f: 'drtgvc',
  g: 'ftyhbv',
  h: 'gyujnb',
  j: 'huikmn',
  k: 'jiolm',
  l: 'kop',
  z: 'asx',
  x: 'zsdc',
  c: 'xdfv',
  v: 'cfgb',
  b: 'vghn',
  n: 'bhjm',
  m: 'njk',
};

/** One edit of the kind, or undefined when the word allows none. */
const typo = (dice: Dice, kind: TypoKind, word: string): { typo: string; what: string } | undefined => {
  const n = word.length;
  if (kind === 'typo-deletion') {
    const i = dice.int(n);
    return { typo: word.slice(0, i) + word.slice(i + 1), what: `"${word[i]}" left out` };
  }
  if (kind === 'typo-insertion') {
    const i = dice.int(n + 1);
    const beside = word[i === 0 ? 0 : i === n ? n - 1 : dice.chance(0.5) ? i - 1 : i]!;
    const letter = dice.chance(0.4) ? beside : dice.pick([...(KEYBOARD_NEIGHBOURS[beside] ?? 'e')]);
    return { typo: word.slice(0, i) + letter + word.slice(i), what: `"${letter}" slipped in` };
  }
  if (kind === 'typo-substitution') {
    const i = dice.int(n);
    const neighbours = KEYBOARD_NEIGHBOURS[word[i]!];
    if (neighbours === undefined) return undefined;
    const letter = dice.pick([...neighbours]);
    return { typo: word.slice(0, i) + letter + word.slice(i + 1), what: `"${word[i]}" hit as "${letter}"` };
  }
  const swappable = [...word.slice(0, -1)].map((c, i) => i).filter((i) => word[i] !== word[i + 1]);
  if (swappable.length === 0) return undefined;
  const i = dice.pick(swappable);
  return { typo: word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), what: `"${word[i]}${word[i + 1]}" swapped` };
};

/** What a one-edit change of `from` into `to` is, if it is one. */
const editKind = (from: string, to: string): TypoKind | undefined => {
  if (to.length === from.length - 1) {
    for (let i = 0; i < from.length; i++) if (from.slice(0, i) + from.slice(i + 1) === to) return 'typo-deletion';
  } else if (to.length === from.length + 1) {
    for (let i = 0; i < to.length; i++) if (to.slice(0, i) + to.slice(i + 1) === from) return 'typo-insertion';
  } else if (to.length === from.length) {
    const diff = [...from].map((c, i) => i).filter((i) => from[i] !== to[i]);
    if (diff.length === 1) return 'typo-substitution';
    if (diff.length === 2 && diff[1] === diff[0]! + 1 && from[diff[0]!] === to[diff[1]] && from[diff[1]] === to[diff[0]!])
      return 'typo-transposition';
  }
  return undefined;
};

const subset = (a: Iterable<number>, b: Set<number>) => [...a].every((x) => b.has(x));
const describe = (item: Searchable) => `${item.title} (${item.year ?? 'no year'}, ${item.id})`;

type Maker = (lookup: Lookup, dice: Dice, made: number) => QualityQuery | undefined;

/** A whole name as typed: right answers are the items with a name of the same words; none other may match it whole. */
const wholeName = (lookup: Lookup, kind: QueryKind, query: string, note: string): QualityQuery | undefined => {
  const words = fold(query);
  const expected = lookup.same(words);
  if (expected.size === 0 || !subset(lookup.sameLoosely(words), expected)) return undefined;
  return { kind, query, expected: [...expected].map((i) => lookup.items[i]!.id), note };
};

/** Some first words of a name: right answers are the items with a name starting with these words. */
const firstWords = (lookup: Lookup, kind: QueryKind, query: string, note: string): QualityQuery | undefined => {
  const words = fold(query);
  const expected = new Set<number>();
  for (const name of lookup.names) {
    if (words.every((w, i) => name.words[i] === w)) expected.add(name.item);
  }
  if (expected.size === 0 || expected.size > 3 || !subset(lookup.startingLoosely(words), expected)) return undefined;
  return { kind, query, expected: [...expected].map((i) => lookup.items[i]!.id), note };
};

const exactQuery: Maker = (lookup, dice) => {
  const item = dice.pick(lookup.items);
  const how = someTyping(dice);
  return wholeName(lookup, 'exact', typed(item.title, how), `the whole title, ${how}: ${describe(item)}`);
};

const prefixQuery: Maker = (lookup, dice) => {
  const item = dice.pick(lookup.items);
  const how = dice.chance(0.3) ? 'lowercase' : 'plain';
  const words = typed(item.title, how).split(' ');
  const cuttable = words.map((w, i) => i).filter((i) => /^\p{L}{4,}$/u.test(words[i]!));
  if (cuttable.length === 0) return undefined;
  const at = dice.pick(cuttable);
  const word = words[at]!;
  const query = [...words.slice(0, at), word.slice(0, dice.between(3, word.length - 1))].join(' ');
  const [lo, hi] = prefixRange(lookup.joinedSorted, fold(query).join(''));
  const expected = [...lookup.itemsOfNames(lookup.joinedNames.slice(lo, hi).filter((n) => lookup.names[n]!.field === 'title'))];
  if (expected.length === 0 || expected.length > 3 || !subset(lookup.startingLoosely(fold(query)), new Set(expected))) return undefined;
  return { kind: 'prefix', query, expected: expected.map((i) => lookup.items[i]!.id), note: `still typing: ${describe(item)}` };
};

const typoQuery =
  (kind: TypoKind): Maker =>
  (lookup, dice, made) => {
    const at = dice.int(lookup.items.length);
    const item = lookup.items[at]!;
    const titleWords = fold(item.title);
    if (!subset(lookup.sameLoosely(titleWords), new Set([at]))) return undefined; // remade, or found whole under another name
    const words = plainTyping(item.title).split(' ');
    const editable = words.map((w, i) => i).filter((i) => /^[a-z]{5,}$/u.test(words[i]!));
    if (editable.length === 0) return undefined;
    const last = words.length - 1;
    // Every other query has its typo in the last word, the rest in an earlier one where there is one.
    const wantLast = made % 2 === 0;
    const preferred = editable.filter((i) => (i === last) === wantLast);
    const i = dice.pick(preferred.length > 0 ? preferred : editable);
    const word = words[i]!;
    const edit = typo(dice, kind, word);
    if (edit === undefined || edit.typo === word) return undefined;
    // Another real word typed: no search can know it was meant for this one.
    if (lookup.tokenSet.has(edit.typo) || lookup.personWords.has(edit.typo)) return undefined;
    const queryWords = [...words];
    queryWords[i] = edit.typo;
    const query = queryWords.join(' ');
    const folded = fold(query);
    const title = lookup.names[lookup.namesOf[at]![0]!]!;
    if (lookup.cost(title, folded) !== 1) return undefined; // the typo made a prefix of the word: not a typo
    // Another name that holds every word as typed, or as near with no more words: as good a match.
    for (const n of lookup.namesNear(edit.typo, i === last)) {
      const name = lookup.names[n]!;
      if (name.item === at) continue;
      const cost = lookup.cost(name, folded);
      if (cost === 0 || (cost === 1 && name.words.length <= folded.length)) return undefined;
    }
    return {
      kind,
      query,
      expected: [item.id],
      note: `${edit.what} in "${word}" (${i === last ? 'last word' : `word ${i + 1} of ${words.length}`}): ${describe(item)}`,
    };
  };

const yearQuery: Maker = (lookup, dice) => {
  const item = dice.pick(lookup.items);
  if (item.year === null) return undefined;
  const words = fold(item.title);
  const versions = [...lookup.same(words)].filter((i) => lookup.names[lookup.namesOf[i]![0]!]!.joined === words.join(''));
  if (versions.length < 2) return undefined;
  const of = (set: Iterable<number>) => [...set].filter((i) => lookup.items[i]!.year === item.year);
  const expected = of(lookup.same(words));
  if (!subset(of(lookup.sameLoosely(words)), new Set(expected))) return undefined;
  const title = typed(item.title, someTyping(dice));
  const query = dice.chance(0.75) ? `${title} ${item.year}` : `${title} (${item.year})`;
  return {
    kind: 'year',
    query,
    expected: expected.map((i) => lookup.items[i]!.id),
    note: `one of ${versions.length} versions: ${describe(item)}`,
  };
};

const originalTitleQuery: Maker = (lookup, dice) => {
  const item = dice.pick(lookup.items);
  if (item.originalTitle === null || fold(item.originalTitle).join('') === fold(item.title).join('')) return undefined;
  const how = someTyping(dice);
  const text = typed(item.originalTitle, how);
  const words = text.split(' ');
  if (words.length > 3 && dice.chance(0.5)) {
    const query = words.slice(0, dice.between(3, words.length - 1)).join(' ');
    return firstWords(
      lookup,
      'original-title',
      query,
      `the start of the original title "${item.originalTitle}", ${how}: ${describe(item)}`,
    );
  }
  return wholeName(lookup, 'original-title', text, `the original title "${item.originalTitle}", ${how}: ${describe(item)}`);
};

const alternativeTitleQuery: Maker = (lookup, dice) => {
  const item = dice.pick(lookup.items);
  const alternatives = item.alternativeTitles ?? [];
  if (alternatives.length === 0) return undefined;
  const alternative = dice.pick(alternatives);
  const how = someTyping(dice);
  return wholeName(lookup, 'alternative-title', typed(alternative, how), `also known as "${alternative}", ${how}: ${describe(item)}`);
};

const personQuery: Maker = (lookup, dice) => {
  const people = lookup.peopleList;
  const surnameOnly = dice.chance(0.4);
  const items = (p: (typeof people)[number]) => (surnameOnly ? lookup.surnames.get(p.words.at(-1)!)!.length : p.items.length);
  // Mostly people with a handful of credits, whom one looks up to find their films; for a
  // surname, the one with the fewest items of a few drawn.
  let person = dice.pick(people);
  for (let i = 0; i < 20 && items(person) > 5; i++) {
    const other = dice.pick(people);
    if (items(other) < items(person)) person = other;
  }
  const text = surnameOnly ? person.name.split(' ').at(-1)! : person.name;
  const r = dice.next();
  const query = r < 0.35 ? text : r < 0.6 ? text.toLowerCase() : plainTyping(text);
  const words = fold(query);
  const expected = new Set(surnameOnly ? (lookup.surnames.get(words[0]!) ?? []) : person.items);
  if (expected.size === 0) return undefined;
  // Every query word starting a word of some title: a title search would be right to put it first.
  const [rarest] = words.map((w) => lookup.namesStarting(w)).sort((a, b) => a.length - b.length);
  if (rarest!.some((n) => lookup.cost(lookup.names[n]!, words) === 0)) return undefined;
  // Someone else whose name the words start: theirs would be as right.
  for (const other of lookup.people.values()) {
    if (words.every((w) => other.words.some((o) => o.startsWith(w))) && !subset(other.items, expected)) return undefined;
  }
  const credits = expected.size === 1 ? '1 item' : `${expected.size} items`;
  return {
    kind: 'person',
    query,
    expected: [...expected].map((i) => lookup.items[i]!.id),
    note: surnameOnly ? `everyone named ${text} (${credits})` : `${person.name} (${credits})`,
  };
};

const MAKERS: Record<QueryKind, Maker> = {
  exact: exactQuery,
  prefix: prefixQuery,
  'typo-deletion': typoQuery('typo-deletion'),
  'typo-insertion': typoQuery('typo-insertion'),
  'typo-substitution': typoQuery('typo-substitution'),
  'typo-transposition': typoQuery('typo-transposition'),
  year: yearQuery,
  'original-title': originalTitleQuery,
  'alternative-title': alternativeTitleQuery,
  person: personQuery,
};

/**
 * `perKind` queries of each kind over the catalogue (fewer when it has too few to draw from),
 * the same for the same catalogue and seed, none twice. Each is checked against the catalogue by
 * a plain scan; a query that fails the check throws.
 */
export function qualityQueries(catalogue: readonly Searchable[], perKind = 25, seed: number = QUERY_SEED): QualityQuery[] {
  const lookup = new Lookup(catalogue);
  const dice = new Dice(seed);
  const queries: QualityQuery[] = [];
  const seen = new Set<string>();
  for (const kind of KINDS) {
    const make = MAKERS[kind];
    let made = 0;
    for (let attempt = 0; made < perKind && attempt < perKind * 400; attempt++) {
      const query = make(lookup, dice, made);
      if (query === undefined) continue;
      const key = fold(query.query).join(' ');
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      queries.push(query);
      made++;
    }
  }
  const scan = scanOf(catalogue);
  for (const query of queries) verify(scan, query);
  return queries;
}

// ---------------------------------------------------------------------------------------------
// Verification: each query's answer recomputed by a plain scan of the catalogue.

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === a.length && b.every((x) => a.includes(x));

/** Every item's names and people folded afresh, once, for the checks to scan. */
interface Scan {
  items: readonly Searchable[];
  names: string[][][];
  /** The same run together, and without a leading article. */
  joined: string[][];
  bare: string[][];
  titleTokens: Set<string>;
  index: Map<string, number>;
  /** Each item's people, folded: full names, and surnames. */
  people: string[][];
  surnames: string[][];
}

const scanOf = (items: readonly Searchable[]): Scan => {
  const names = items.map((item) =>
    [item.title, item.originalTitle, ...(item.alternativeTitles ?? [])].filter((t): t is string => t !== null).map(fold),
  );
  const titleTokens = new Set<string>();
  items.forEach((item, i) => {
    const texts = [item.title, item.originalTitle, ...(item.alternativeTitles ?? [])].filter((t): t is string => t !== null);
    texts.forEach((text, j) => tokensOf(plainWordsOf(text, names[i]![j]!), names[i]![j]!).forEach((t) => titleTokens.add(t)));
  });
  const index = new Map(items.map((item, i) => [item.id, i]));
  const joined = names.map((of) => of.map((n) => n.join('')));
  const bare = names.map((of) => of.map(bareOf));
  const foldName = folder();
  const people = items.map((item) => (item.people ?? []).map(foldName));
  return {
    items,
    names,
    joined,
    bare,
    titleTokens,
    index,
    people: people.map((of) => of.map((words) => words.join(' '))),
    surnames: people.map((of) => of.map((words) => words.at(-1)!)),
  };
};

function verify(scan: Scan, query: QualityQuery): void {
  const fail = (why: string): never => {
    throw new Error(`search-quality: ${query.kind} query ${JSON.stringify(query.query)} (${query.expected.join(', ')}): ${why}`);
  };
  const { items, names } = scan;
  if (query.expected.length === 0) fail('nothing expected');
  if (new Set(query.expected).size !== query.expected.length) fail('an id expected twice');
  const at = query.expected.map((id) => scan.index.get(id) ?? fail(`no item ${id}`));
  const words = fold(query.query);
  const joined = words.join('');
  const ids = (test: (i: number) => boolean) => {
    const found: string[] = [];
    for (let i = 0; i < items.length; i++) if (test(i)) found.push(items[i]!.id);
    return found;
  };
  const named = (w: readonly string[]) => {
    const key = w.join('');
    return (i: number) => scan.joined[i]!.includes(key);
  };
  const namedLoosely = (w: readonly string[]) => {
    const key = w.join('');
    const bare = bareOf(w);
    return (i: number) => scan.joined[i]!.includes(key) || scan.bare[i]!.includes(bare);
  };
  const startingWith = (w: readonly string[]) => (i: number) => names[i]!.some((n) => w.every((x, k) => n[k] === x));

  switch (query.kind) {
    case 'exact':
    case 'alternative-title':
      if (!sameSet(query.expected, ids(named(words)))) fail('not every item of that name, or another');
      if (!sameSet(query.expected, ids(namedLoosely(words)))) fail('another item of that name give or take an article');
      if (
        query.kind === 'alternative-title' &&
        !at.some((i) => (items[i]!.alternativeTitles ?? []).some((t) => fold(t).join('') === joined))
      )
        fail('no item has it as an alternative title');
      return;
    case 'prefix':
      if (
        !sameSet(
          query.expected,
          ids((i) => scan.joined[i]![0]!.startsWith(joined)),
        )
      )
        fail('not every title starting so');
      if (query.expected.length > 3) fail('more than 3 items');
      if (!at.some((i) => scan.joined[i]![0]! !== joined)) fail('a whole title, not one being typed');
      return;
    case 'original-title': {
      const original = (i: number) => {
        const { title, originalTitle } = items[i]!;
        return originalTitle === null || fold(originalTitle).join('') === fold(title).join('') ? undefined : fold(originalTitle);
      };
      if (
        !at.some((i) => {
          const o = original(i);
          return o !== undefined && words.every((w, k) => o[k] === w);
        })
      )
        fail('no original title of an expected item starts so');
      const whole = sameSet(query.expected, ids(named(words))) && sameSet(query.expected, ids(namedLoosely(words)));
      const start = sameSet(query.expected, ids(startingWith(words))) && query.expected.length <= 3;
      if (!whole && !start) fail('not every item of that name, or of a name starting so');
      return;
    }
    case 'year': {
      const year = Number(words.at(-1));
      const title = words.slice(0, -1);
      if (!/^\d{4}$/u.test(words.at(-1) ?? '')) fail('no year');
      if (ids(named(title)).length < 2) fail('not a remade title');
      if (
        !sameSet(
          query.expected,
          ids((i) => items[i]!.year === year && namedLoosely(title)(i)),
        )
      )
        fail('not every version of that year');
      return;
    }
    case 'person': {
      const name = words.join(' ');
      const found = words.length === 1 ? ids((i) => scan.surnames[i]!.includes(name)) : ids((i) => scan.people[i]!.includes(name));
      if (!sameSet(query.expected, found)) fail('not every item the person is credited on');
      if (words.some((w) => scan.titleTokens.has(w))) fail('a word of the name is a word of a title');
      return;
    }
    default: {
      if (at.length !== 1) fail('a typo query expects one item');
      const i = at[0]!;
      const title = names[i]![0]!;
      if (ids(namedLoosely(title)).length !== 1) fail('the title is not unique');
      if (title.length !== words.length) fail('not the whole title');
      const changed = title.map((w, k) => k).filter((k) => title[k] !== words[k]);
      if (changed.length !== 1) fail('not one word changed');
      const from = title[changed[0]!]!;
      const to = words[changed[0]!]!;
      if (from.length < 5) fail('a word under five letters changed');
      if (editKind(from, to) !== query.kind) fail(`"${from}" → "${to}" is not a ${query.kind}`);
      if (scan.titleTokens.has(to)) fail(`"${to}" is a word of a title`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scoring.

/** Runs every query; per kind, then the typos together, then all: the share right first, the share right in the first five. */
export function scoreQueries(queries: readonly QualityQuery[], search: (query: string) => string[]): KindScore[] {
  const results = queries.map((q) => ({ q, got: search(q.query).slice(0, 5) }));
  const score = (kind: KindScore['kind'], of: typeof results): KindScore => {
    const top1 = of.filter(({ q, got }) => got[0] !== undefined && q.expected.includes(got[0])).length;
    const right = of.filter(({ q, got }) => got.some((id) => q.expected.includes(id)));
    const misses = of
      .filter(({ q, got }) => got[0] === undefined || !q.expected.includes(got[0]))
      .slice(0, 10)
      .map(({ q, got }) => ({ query: q.query, expected: q.expected, got }));
    const n = of.length;
    return { kind, queries: n, top1: n === 0 ? 0 : top1 / n, top5: n === 0 ? 0 : right.length / n, misses };
  };
  const scores: KindScore[] = [];
  for (const kind of KINDS) {
    const of = results.filter(({ q }) => q.kind === kind);
    if (of.length > 0) scores.push(score(kind, of));
  }
  scores.push(
    score(
      'typo (all)',
      results.filter(({ q }) => TYPO_KINDS.includes(q.kind)),
    ),
  );
  scores.push(score('all', results));
  return scores;
}
