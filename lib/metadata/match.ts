// Choosing the provider's record for a parsed file among search results. Pure and deterministic:
// the same title, year and candidates always give the same choice, whatever order ties come in.
//
// A candidate's score is how alike the titles are (0..1) times how well the years agree (0..1).
// Titles are compared in the search index's folded form (case, accents and punctuation gone,
// "spiderman" = "spider man"), against both the candidate's title and its original title.
import { tokenize } from '../text/normalize';

export interface MatchQuery {
  title: string;
  year: number | null;
  /**
   * From a filename tag or an NFO. Only `tmdb` decides here: search results carry no IMDb id,
   * so an IMDb id is for the caller to resolve first (TMDB's find by external id).
   */
  ids?: { tmdb?: number; imdb?: string };
}

/** A search hit, mapped from the provider's result (a show's `name` is its `title`). */
export interface Candidate {
  id: number;
  title: string;
  originalTitle: string | null;
  year: number | null;
  popularity?: number;
}

export type MatchResult<C extends Candidate = Candidate> =
  /** The query named the id. `match` is the listed candidate, else a stand-in: fetch by `match.id`. */
  | { match: C | Candidate; confidence: 1; by: 'id' }
  | { match: C; confidence: number; by: 'title' }
  /** `confidence` is the best candidate's score (0 with none). */
  | { match: null; confidence: number; reason: string };

/**
 * The lowest score that is still a match. It lets through the same title with the same year,
 * a year one off (festival premiere against release, 0.9) or no year on either side (0.85),
 * and a shortened title with the same year ("Leon" for "Léon: The Professional", 0.675). It keeps
 * out the same title two or more years off (0.55 and less: a remake, or another show of that
 * name) and titles sharing a word or two. An unmatched item keeps its file's title; a wrong match
 * would show another film's poster and plot, which is worse.
 */
export const MATCH_THRESHOLD = 0.6;

// How much a year difference leaves of the title score.
const SAME_YEAR = 1;
const YEAR_OFF_BY_ONE = 0.9;
const YEAR_UNKNOWN = 0.85; // below one year off: a year that agrees is evidence, a missing one is not
const YEAR_OFF_BY_TWO = 0.55;
const YEAR_FURTHER = 0.35;

/** A near title never scores as high as an equal one. */
const NEAR_TITLE_MAX = 0.9;
/** "Blade Runner" against "Blade Runner 2049", "Part 1" against "Part 2": sequels, not spellings. */
const OTHER_NUMBERS = 0.6;

// English only: "Die" and "La" open many titles as words ("Die Hard"), so dropping other
// languages' articles would equate different titles.
const ARTICLES: ReadonlySet<string> = new Set(['the', 'a', 'an']);

export function chooseMatch<C extends Candidate>(query: MatchQuery, candidates: readonly C[]): MatchResult<C> {
  const knownId = query.ids?.tmdb;
  if (knownId !== undefined) {
    const listed = candidates.find((candidate) => candidate.id === knownId);
    return { match: listed ?? standIn(knownId, query), confidence: 1, by: 'id' };
  }
  const wanted = words(query.title);
  if (wanted.length === 0) return { match: null, confidence: 0, reason: 'the title has no words to compare' };
  const ranked = candidates
    .map((candidate, index) => ({ candidate, index, score: score(wanted, query.year, candidate) }))
    .sort((a, b) => b.score - a.score || popularity(b.candidate) - popularity(a.candidate) || a.index - b.index);
  const best = ranked[0];
  if (best === undefined) return { match: null, confidence: 0, reason: 'no candidates' };
  if (best.score < MATCH_THRESHOLD) return { match: null, confidence: best.score, reason: 'no candidate close enough' };
  return { match: best.candidate, confidence: best.score, by: 'title' };
}

function standIn(id: number, query: MatchQuery): Candidate {
  return { id, title: query.title, originalTitle: null, year: query.year };
}

const popularity = (candidate: Candidate) => candidate.popularity ?? 0;

/** Rounded to thousandths so equal evidence ties exactly and popularity can break the tie. */
function score(wanted: string[], year: number | null, candidate: Candidate): number {
  const original = candidate.originalTitle === null ? 0 : titleSimilarity(wanted, words(candidate.originalTitle));
  const title = Math.max(titleSimilarity(wanted, words(candidate.title)), original);
  return Math.round(title * yearAgreement(year, candidate.year) * 1000) / 1000;
}

/** Folded words, "&" read as "and", without a leading English article. */
function words(title: string): string[] {
  const tokens = tokenize(title.replace(/&/gu, ' and '));
  const first = tokens[0];
  return tokens.length > 1 && first !== undefined && ARTICLES.has(first) ? tokens.slice(1) : tokens;
}

/**
 * 1 for the same words (spaces aside); else a near score from the shared words: half how much
 * the two word lists overlap (Dice), half how much of the query the candidate covers, so a
 * file named by a short title ("Leon") still meets the full one ("Léon: The Professional").
 */
export function titleSimilarity(wanted: readonly string[], other: readonly string[]): number {
  if (other.length === 0 || wanted.length === 0) return 0;
  if (wanted.join('') === other.join('')) return 1;
  const shared = sharedCount(wanted, other);
  const dice = (2 * shared) / (wanted.length + other.length);
  const covered = shared / wanted.length;
  const near = (NEAR_TITLE_MAX * (dice + covered)) / 2;
  return sameNumbers(wanted, other) ? near : near * OTHER_NUMBERS;
}

export function yearAgreement(wanted: number | null, other: number | null): number {
  if (wanted === null || other === null) return YEAR_UNKNOWN;
  const apart = Math.abs(wanted - other);
  if (apart === 0) return SAME_YEAR;
  if (apart === 1) return YEAR_OFF_BY_ONE;
  return apart === 2 ? YEAR_OFF_BY_TWO : YEAR_FURTHER;
}

/** Words in common, each occurrence counted once ("the the" shares one "the" with "the"). */
function sharedCount(a: readonly string[], b: readonly string[]): number {
  const left = new Map<string, number>();
  for (const word of a) left.set(word, (left.get(word) ?? 0) + 1);
  let shared = 0;
  for (const word of b) {
    const count = left.get(word) ?? 0;
    if (count === 0) continue;
    left.set(word, count - 1);
    shared += 1;
  }
  return shared;
}

function sameNumbers(a: readonly string[], b: readonly string[]): boolean {
  const numbers = (list: readonly string[]) => [...new Set(list.filter((word) => /^\d+$/u.test(word)))].sort().join(' ');
  return numbers(a) === numbers(b);
}
