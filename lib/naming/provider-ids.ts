// Provider id tags ("[tmdbid-27205]") are user hints: read the TMDB id, then drop every tag so
// it never ends up in a title.
import { groupInt, matches } from './match';
import type { NamingRules } from './rules';

export interface Tagged {
  /** The name with its tags removed and the ends trimmed. */
  readonly rest: string;
  /** The first TMDB id found, or null. 0 is not a TMDB id. */
  readonly tmdbId: number | null;
}

export function readProviderTags(name: string, rules: NamingRules): Tagged {
  let tmdbId: number | null = null;
  for (const match of matches(rules.providerTag, name)) {
    const id = groupInt(match, 'id');
    if (match.groups?.provider?.toLowerCase() === 'tmdb' && id !== undefined && id > 0) {
      tmdbId = id;
      break;
    }
  }
  return { rest: name.replace(rules.providerTag, ' ').trim(), tmdbId };
}
