// Containment of absolute, canonical paths ('/'-separated, no trailing '/', no '.' or '..'):
// the walk's links and the system fences ask whether one folder holds another.

/** `inner` is `outer` or below it; both canonical. */
export const isInside = (outer: string, inner: string) => inner === outer || inner.startsWith(outer === '/' ? '/' : `${outer}/`);

/** The path itself, then each folder above it, up to and including '/'. */
export function* selfAndAncestors(path: string): Generator<string> {
  for (let folder = path; ;) {
    yield folder;
    if (folder === '/') return;
    const slash = folder.lastIndexOf('/');
    folder = slash <= 0 ? '/' : folder.slice(0, slash);
  }
}
