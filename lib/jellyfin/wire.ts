// The Jellyfin door's wire rules: JSON with nulls left out (the shapes are written in
// PascalCase where they are built), times in ticks, request keys read whatever their case,
// list parameters comma- or pipe-separated (API Gateway joins repeated keys with commas).

export const TICKS_PER_SECOND = 10_000_000;

export const ticks = (seconds: number | null | undefined): number | undefined =>
  seconds === null || seconds === undefined || !Number.isFinite(seconds) ? undefined : Math.round(seconds * TICKS_PER_SECOND);

export const secondsOf = (value: number) => value / TICKS_PER_SECOND;

/** A value as the door writes it: nulls and undefined left out, in objects and arrays alike. */
export const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(withoutNulls);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) out[key] = withoutNulls(v);
    return out;
  }
  return value;
};

/** Query parameters by lower-cased key. */
export class DoorQuery {
  private readonly values = new Map<string, string>();

  constructor(raw: Readonly<Record<string, string | undefined>> | undefined) {
    for (const [key, value] of Object.entries(raw ?? {})) {
      if (value === undefined) continue;
      const k = key.toLowerCase();
      const before = this.values.get(k);
      this.values.set(k, before === undefined ? value : `${before},${value}`);
    }
  }

  get map(): ReadonlyMap<string, string> {
    return this.values;
  }

  str(key: string): string | undefined {
    const value = this.values.get(key.toLowerCase())?.trim();
    return value ? value : undefined;
  }

  /** Comma-separated (or `separator`), blanks left out. */
  list(key: string, separator: RegExp = /,/u): string[] {
    return (this.str(key) ?? '')
      .split(separator)
      .map((v) => v.trim())
      .filter(Boolean);
  }

  /** An integer at least `min`; undefined when absent or not one (the apps' odd values are ignored, not refused). */
  int(key: string, min = 0): number | undefined {
    const raw = this.str(key);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    return Number.isSafeInteger(n) && n >= min ? n : undefined;
  }

  bool(key: string): boolean | undefined {
    const raw = this.str(key)?.toLowerCase();
    return raw === 'true' ? true : raw === 'false' ? false : undefined;
  }
}

/** A request body's field whatever the case of its key. */
export const field = (body: unknown, key: string): unknown => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const wanted = key.toLowerCase();
  for (const [k, v] of Object.entries(body)) if (k.toLowerCase() === wanted) return v;
  return undefined;
};

export const textField = (body: unknown, key: string): string | undefined => {
  const value = field(body, key);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
};
