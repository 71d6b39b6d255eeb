// A library's index in a few items (gzipped JSON in parts under 400 KB), written when a scan
// completes, so the next rescan reads one small query instead of an item per file. It is
// only ever trusted whole: a scan drops it before it writes anything, and a reader takes a
// set of parts only when every part of it is there. Missing or incomplete: read the index.
import { gunzipSync, gzipSync } from 'node:zlib';
import { batchWrite } from '../db/batch';
import { queryItems, type Db } from '../db/client';
import { keys } from '../db/table';
import type { TechnicalInfo } from '../media/technical-info';
import type { EnrichState, FileRef, IndexEntry } from './model';

const PART_BYTES = 350_000;

// Rows are positional to keep the manifest small. Fields added later go at the end, so a
// manifest written by an older version still reads (they are simply absent).
type CompactFile = [relPath: string, size: number, mtimeMs: number, part: number | null, tech?: TechnicalInfo | null];
type Compact = [
  id: string,
  entity: IndexEntry['entity'],
  addedAt: string,
  files: CompactFile[],
  showId: string | null,
  season: number | null,
  enrich?: EnrichState | null,
  localStamp?: string | null,
];

export const pack = (entries: IndexEntry[]): Compact[] =>
  entries.map((e) => [
    e.id,
    e.entity,
    e.addedAt,
    (e.files ?? []).map((f): CompactFile =>
      f.tech === undefined ? [f.relPath, f.size, f.mtimeMs, f.part] : [f.relPath, f.size, f.mtimeMs, f.part, f.tech],
    ),
    e.showId ?? null,
    e.seasonNumber ?? null,
    e.enrich ?? null,
    e.localStamp ?? null,
  ]);

export const unpack = (rows: Compact[]): IndexEntry[] =>
  rows.map(([id, entity, addedAt, files, showId, season, enrich, localStamp]) => ({
    id,
    entity,
    addedAt,
    ...(entity === 'tvshow'
      ? {}
      : {
          files: files.map(([relPath, size, mtimeMs, part, tech]): FileRef => ({
            relPath,
            size,
            mtimeMs,
            part,
            ...(tech !== undefined ? { tech } : {}),
          })),
        }),
    ...(showId !== null ? { showId } : {}),
    ...(season !== null ? { seasonNumber: season } : {}),
    ...(enrich ? { enrich } : {}),
    ...(localStamp ? { localStamp } : {}),
  }));

export interface ManifestStore {
  /** The library's whole index as the last scan that completed left it; undefined when there is none, or none whole. */
  read(libraryId: string): Promise<IndexEntry[] | undefined>;
  /** Replaces the manifest with `entries`, written by `jobId`. */
  write(libraryId: string, jobId: string, entries: IndexEntry[]): Promise<void>;
  /** Removes it: the next reader goes to the index. */
  drop(libraryId: string): Promise<void>;
}

export class DynamoManifestStore implements ManifestStore {
  constructor(
    private readonly db: () => Db,
    private readonly partBytes = PART_BYTES,
  ) {}

  private async parts(libraryId: string) {
    const { pk } = keys.manifestParts(libraryId);
    const parts: Record<string, unknown>[] = [];
    for await (const item of queryItems(this.db(), {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }))
      parts.push(item);
    return parts;
  }

  /** The newest complete set of parts (a crash between writing a new set and deleting the old leaves two). */
  async read(libraryId: string): Promise<IndexEntry[] | undefined> {
    const sets = new Map<string, Record<string, unknown>[]>();
    for (const p of await this.parts(libraryId)) sets.set(String(p.jobId), [...(sets.get(String(p.jobId)) ?? []), p]);
    const complete = [...sets.values()]
      .map((set) => set.sort((a, b) => Number(a.part) - Number(b.part)))
      .filter((set) => set.length === Number(set[0]!.parts) && set.every((p, i) => Number(p.part) === i))
      .sort((a, b) => String(b[0]!.writtenAt).localeCompare(String(a[0]!.writtenAt)));
    const set = complete[0];
    if (!set) return undefined;
    const zipped = Buffer.concat(set.map((p) => Buffer.from(p.data as Uint8Array)));
    return unpack(JSON.parse(gunzipSync(zipped).toString('utf8')) as Compact[]);
  }

  async write(libraryId: string, jobId: string, entries: IndexEntry[]): Promise<void> {
    const zipped = gzipSync(JSON.stringify(pack(entries)));
    const count = Math.max(1, Math.ceil(zipped.length / this.partBytes));
    const writtenAt = new Date().toISOString();
    // Every part but those this write replaces: an earlier set, and this job's own extra parts when it writes again in fewer.
    const stale = (await this.parts(libraryId)).filter((p) => p.jobId !== jobId || Number(p.part) >= count);
    await batchWrite(
      this.db(),
      Array.from({ length: count }, (_, i) => ({
        put: {
          ...keys.manifestPart(libraryId, jobId, i),
          entity: 'library-manifest',
          jobId,
          part: i,
          parts: count,
          writtenAt,
          data: zipped.subarray(i * this.partBytes, (i + 1) * this.partBytes),
        },
      })),
    );
    await batchWrite(
      this.db(),
      stale.map((p) => ({ delete: { pk: String(p.pk), sk: String(p.sk) } })),
    );
  }

  async drop(libraryId: string): Promise<void> {
    const parts = await this.parts(libraryId);
    await batchWrite(
      this.db(),
      parts.map((p) => ({ delete: { pk: String(p.pk), sk: String(p.sk) } })),
    );
  }
}
