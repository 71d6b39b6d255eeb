// Helpers to run rule patterns without shared state. Global patterns go through matchAll, which
// works on a copy of the RegExp; a non-global pattern (say, a caller's custom rule) is run once
// with exec, which does not touch lastIndex either (matchAll would throw on it). A sticky
// non-global pattern would mutate lastIndex on exec, so it never matches.

/** Every match of `pattern` in `text`, lazily. */
export function* matches(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  if (pattern.global) {
    yield* text.matchAll(pattern) as IterableIterator<RegExpExecArray>;
    return;
  }
  const match = pattern.sticky ? null : pattern.exec(text);
  if (match) yield match;
}

/** The first match of `pattern` in `text`, if any. */
export function firstMatch(pattern: RegExp, text: string): RegExpExecArray | undefined {
  for (const match of matches(pattern, text)) return match;
  return undefined;
}

/** A named group as an integer, or undefined when it did not take part or is not a number. */
export function groupInt(match: RegExpExecArray, name: string): number | undefined {
  const raw = match.groups?.[name];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : undefined;
}
