// Multi-part movies ("Movie - cd1.avi", "Movie - cd2.avi") share a stack key so a scanner can
// group them into one item played in part order.
import { groupInt, matches } from './match';
import type { NamingRules } from './rules';

export interface PartSplit {
  /** The name without its part token ('' for a bare "cd1"). */
  readonly name: string;
  /** The part number (1 or more), or null when the name has no part token. */
  readonly part: number | null;
}

export function splitPart(base: string, rules: NamingRules): PartSplit {
  for (const rule of rules.stack) {
    for (const match of matches(rule.pattern, base)) {
      const part = groupInt(match, 'part');
      if (part === undefined || part < 1) continue;
      return { name: base.slice(0, match.index), part };
    }
  }
  return { name: base, part: null };
}
