// The search: an index built from the catalogue's movies and shows, and queried by the words a
// person types. model.ts holds what it reads and answers, ranking.ts how a match is ranked,
// builder.ts the incremental build, engine.ts the index and its queries.
export { normalize, tokenize } from '../text/normalize';
export { SearchIndex } from './engine';
export { DEFAULT_LIMIT, type MatchedOn, type SearchHit, type Searchable, type SearchOptions } from './model';
