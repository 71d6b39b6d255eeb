// A conversion session's id, `r3-<16 hex>`: its kind's letter and its slot (sessions.ts), so a
// request finds its item without an index; also the name of its folder of segments
// (segment-cache.ts, which the runner's sweep uses without the table).
export type ConversionKind = 'remux' | 'transcode';

const ID = /^([rt])(\d{1,3})-[0-9a-f]{16}$/;
export const KIND_LETTER: Record<ConversionKind, string> = { remux: 'r', transcode: 't' };

export const parseSessionId = (id: string): { kind: ConversionKind; slot: number } | undefined => {
  const m = ID.exec(id);
  return m ? { kind: m[1] === 'r' ? 'remux' : 'transcode', slot: Number(m[2]) } : undefined;
};
