// Libraries' manifests held in this process's memory: the ManifestStore port with DynamoDB's
// semantics (test/contracts/manifest.ts holds both to them). Kept in the manifest's own compact
// rows, so what reads back is what the table's parts give back.
import { pack, unpack, type ManifestStore } from './manifest';
import type { IndexEntry } from './model';

export class MemoryManifestStore implements ManifestStore {
  /** Each library's manifest as JSON of its compact rows (a write is whole or not at all). */
  private readonly manifests = new Map<string, string>();

  async read(libraryId: string): Promise<IndexEntry[] | undefined> {
    const rows = this.manifests.get(libraryId);
    return rows === undefined ? undefined : unpack(JSON.parse(rows) as ReturnType<typeof pack>);
  }

  async write(libraryId: string, _jobId: string, entries: IndexEntry[]): Promise<void> {
    this.manifests.set(libraryId, JSON.stringify(pack(entries)));
  }

  async drop(libraryId: string): Promise<void> {
    this.manifests.delete(libraryId);
  }
}
