// Libraries held in this process's memory: the LibraryStore port with DynamoDB's semantics
// (test/contracts/library.ts holds both to them). A path is held by one library at most, as the
// table's path item holds it; a create that finds it taken is refused whole.
import { libraryExists } from '../errors';
import { ascending } from '../util/order';
import { storedCopy } from '../util/stored-copy';
import type { Library, LibraryCounts, LibraryStatus } from './model';
import type { LibraryChanges, LibraryStore } from './store';

/** Oldest first, as the table's index of libraries sorts them. */
const byAge = (a: Library, b: Library) => ascending(`${a.createdAt}#${a.id}`, `${b.createdAt}#${b.id}`);

export class MemoryLibraryStore implements LibraryStore {
  private readonly libraries = new Map<string, Library>();
  /** Each path taken, and by which library. */
  private readonly paths = new Map<string, string>();

  async create(library: Library): Promise<void> {
    if (this.libraries.has(library.id) || this.paths.has(library.path)) throw libraryExists(library.path, library.path);
    this.libraries.set(library.id, storedCopy(library));
    this.paths.set(library.path, library.id);
  }

  async get(id: string): Promise<Library | undefined> {
    const library = this.libraries.get(id);
    return library && storedCopy(library);
  }

  async list(): Promise<Library[]> {
    return [...this.libraries.values()]
      .filter((l) => !l.removing)
      .sort(byAge)
      .map(storedCopy);
  }

  async removing(): Promise<Library[]> {
    return [...this.libraries.values()]
      .filter((l) => l.removing)
      .sort(byAge)
      .map(storedCopy);
  }

  async markRemoving(id: string, at: string): Promise<Library | undefined> {
    const library = this.libraries.get(id);
    return library && this.change(id, { removing: library.removing ?? { since: at, heartbeatAt: at } });
  }

  async beatRemoval(id: string, at: string): Promise<boolean> {
    const removing = this.libraries.get(id)?.removing;
    if (removing) this.change(id, { removing: { ...removing, heartbeatAt: at } });
    return Boolean(removing);
  }

  async recordScan(id: string, counts: LibraryCounts, at: string, nextScanAt?: string | null): Promise<void> {
    this.change(id, { counts, lastScannedAt: at, ...(nextScanAt !== undefined ? { nextScanAt } : {}) });
  }

  async recordCounts(id: string, counts: LibraryCounts): Promise<void> {
    this.change(id, { counts });
  }

  async update(id: string, changes: LibraryChanges): Promise<Library | undefined> {
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<Library>;
    return this.change(id, given);
  }

  async setStatus(id: string, status: LibraryStatus): Promise<boolean> {
    const library = this.libraries.get(id);
    // Two seeing the same change: the first tells.
    if (!library || (library.status.state === status.state && library.status.reason === status.reason)) return false;
    this.change(id, { status });
    return true;
  }

  async remove(library: Library): Promise<void> {
    this.libraries.delete(library.id);
    this.paths.delete(library.path);
  }

  /** The library with `fields` set; undefined (and nothing made) when there is none. */
  private change(id: string, fields: Partial<Library>): Library | undefined {
    const library = this.libraries.get(id);
    if (!library) return undefined;
    const changed = storedCopy({ ...library, ...fields });
    this.libraries.set(id, changed);
    return storedCopy(changed);
  }
}
