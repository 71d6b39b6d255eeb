// Keeps the API key out of everything the client says: errors, their causes and log fields.
// URLs for errors and logs are built without credentials in the first place; `scrubber` is
// the second line, for text that came from elsewhere (an error from fetch, a server's message).

export const REDACTED = '[redacted]';

/** The request's URL as errors and logs show it: the same path and query, minus credentials. */
export function displayUrl(base: string, path: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}

/** Replaces every occurrence of the secret (also URL-encoded) in a text. */
export function scrubber(secret: string): (text: string) => string {
  const forms = [...new Set([secret, encodeURIComponent(secret)])].filter((f) => f.length > 0);
  return (text) => forms.reduce((out, form) => out.split(form).join(REDACTED), text);
}

/**
 * A plain copy of an error (name, message, code, and its own cause), scrubbed: safe to attach as
 * the `cause` of a provider error, where the original might quote a URL with the key in it.
 */
export function scrubbedCause(err: unknown, scrub: (text: string) => string, depth = 0): Error {
  const source = err instanceof Error ? err : new Error(String(err));
  const copy = new Error(scrub(source.message));
  copy.name = source.name;
  copy.stack = `${copy.name}: ${copy.message}`; // the original stack may quote the message
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code: scrub(code) });
  if (source.cause !== undefined && depth < 3) copy.cause = scrubbedCause(source.cause, scrub, depth + 1);
  return copy;
}
