// Conditional requests by entity tag, shared by every endpoint that hands out ETags.

/** If-None-Match (RFC 9110 §13.1.2): `*` or any listed tag, compared weakly. False when absent. */
export const ifNoneMatchHolds = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === etag);
};
