// A walk of a folder tree that always ends and stays small. Symbolic links to folders are
// followed, but only into places not walked already (the root, an earlier link's tree) and
// not into a folder holding the root, a system filesystem or the service's data folder:
// a link such as /proc/<pid>/root would otherwise lead through the whole disk again and
// again. Limits on entries and depth stop trees that are simply too big.
//
// The walk goes in rounds: first the root's own tree, then the folders that the links met
// in that round lead to, then those that their links lead to, and so on. Links are decided
// between rounds in path order, so which link name a tree is found under does not depend on
// which read happened to finish first.
//
// The reads use callbacks, not promises (lib/util/pool.ts's JobPool): fs/promises' readdir and
// a promise chain per folder made the walk about a third slower on a tree of 7,000 folders.
import { type Dirent, readdir, realpath as realpathCallback, stat } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ascending } from '../util/order';
import { Pacer } from '../util/pace';
import { isInside, selfAndAncestors } from '../util/paths';
import { JobPool } from '../util/pool';
import { sortPaced } from '../util/sort-paced';

export interface WalkLimits {
  /** Directory entries seen, of any kind and whether kept or not. */
  maxEntries: number;
  /** Folders below the root; a followed link counts as one. */
  maxDepth: number;
}

/** Why a folder below the root was left out (folders the caller's `skipDir` refuses are not reported). */
export type WalkSkipReason =
  /** A link into the root's own tree: its files are found under their real paths. */
  | 'inside-root'
  /** A link to a folder holding the root: it would walk the library again and the rest of the disk. */
  | 'holds-root'
  /** A fence (a system filesystem, the data folder) or a link into one. */
  | 'fenced'
  /** A folder walked already, or to be walked, from another link. */
  | 'walked'
  /** A folder that could not be read (no permission, vanished). */
  | 'unreadable';

export class WalkLimitError extends Error {
  override readonly name = 'WalkLimitError';
  constructor(
    readonly limit: 'entries' | 'depth',
    readonly value: number,
    /** The folder, relative to the root, where the limit was hit. */
    readonly relPath: string,
  ) {
    const where = relPath === '' ? 'the root folder' : `"${relPath}"`;
    super(
      limit === 'entries'
        ? `The folder tree has more than ${value} entries (maxEntries), reached while reading ${where}`
        : `The folder tree is deeper than ${value} folders (maxDepth), at ${where}`,
    );
  }
}

export interface WalkOptions {
  limits: WalkLimits;
  /** A folder below the root to leave out whole (relPath is '/'-separated, relative to the root; absPath is the path actually read). */
  skipDir?(relPath: string, absPath: string): boolean;
  /** Which files to return. */
  keepFile(relPath: string): boolean;
  /** Canonical folders never entered, nor anything below them (pseudo filesystems, the service's data folder). */
  fences?: readonly string[];
  /** Folders left out and why, for a debug log; sorted by path within each round of the walk. */
  onSkip?(relPath: string, reason: WalkSkipReason): void;
  signal?: AbortSignal;
}

/** Reads in flight at once: enough to keep the disk and libuv's threads busy, few enough to leave room for requests. */
const CONCURRENCY = 16;
/** Entries handled between turns of the event loop: a few milliseconds of work at most. */
const ENTRIES_PER_TURN = 2000;

/** Relative ('/'-separated) paths of the kept files, as named on disk (through links: the link's name), sorted. */
export const walk = async (root: string, options: WalkOptions): Promise<string[]> => {
  options.signal?.throwIfAborted();
  return new Walk(await realpath(root), options).run();
};

/** A folder to read: where it is on disk (canonical) and what the caller calls it. */
interface Folder {
  abs: string;
  rel: string;
  depth: number;
}

/** A link to a folder met in one round, followed or not after it. */
interface LinkToFolder {
  rel: string;
  target: string;
  depth: number;
}

class Walk {
  private readonly kept: string[] = [];
  private readonly fences: ReadonlySet<string>;
  /** Canonical folders whose trees are walked from themselves: the root and every followed link's target. */
  private readonly starts: Set<string>;
  private readonly pacer = new Pacer(ENTRIES_PER_TURN);
  private pool = new JobPool(CONCURRENCY);
  private entriesSeen = 0;
  private linksMet: LinkToFolder[] = [];
  private skipsMet: Array<{ rel: string; reason: WalkSkipReason }> = [];

  constructor(
    private readonly root: string,
    private readonly options: WalkOptions,
  ) {
    this.fences = new Set((options.fences ?? []).map((fence) => resolve(fence)));
    this.starts = new Set([root]);
  }

  async run(): Promise<string[]> {
    const { signal } = this.options;
    const abort = () => this.pool.fail(signal!.reason);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      let round: Folder[] = [{ abs: this.root, rel: '', depth: 0 }];
      while (round.length) {
        await this.walkRound(round);
        round = await this.followLinks();
        await this.reportSkips();
      }
      return await sortPaced(this.kept, ascending, this.pacer);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  private walkRound(folders: Folder[]): Promise<void> {
    this.options.signal?.throwIfAborted();
    this.pool = new JobPool(CONCURRENCY);
    for (const folder of folders) this.pool.push((done) => this.read(folder, done));
    return this.pool.finished();
  }

  private read(folder: Folder, done: () => void) {
    const pool = this.pool;
    readdir(folder.abs, { withFileTypes: true }, (err, entries) =>
      pool.attempt(() => {
        if (err) {
          // The root was checked by the caller: failing to read it is an error, not an empty library.
          if (folder.abs === this.root) throw err;
          this.skipped(folder.rel, 'unreadable');
          return done();
        }
        this.count(entries.length, folder.rel);
        // Node made an object of each entry just now, in this same turn: that counts as work too.
        if (this.pacer.spent(entries.length)) this.pacer.resume(() => pool.attempt(() => this.meetFrom(entries, 0, folder, done)));
        else this.meetFrom(entries, 0, folder, done);
      }),
    );
  }

  /** Handles entries from `start` on, pausing whenever this turn's share of work is spent. */
  private meetFrom(entries: Dirent[], start: number, folder: Folder, done: () => void) {
    for (let i = start; i < entries.length; i++) {
      if (this.pacer.spent()) {
        const pool = this.pool;
        return this.pacer.resume(() => pool.attempt(() => this.meetFrom(entries, i, folder, done)));
      }
      this.meet(entries[i]!, folder);
    }
    done();
  }

  private count(entries: number, rel: string) {
    this.entriesSeen += entries;
    const { maxEntries } = this.options.limits;
    if (this.entriesSeen > maxEntries) throw new WalkLimitError('entries', maxEntries, rel);
  }

  private meet(entry: Dirent, parent: Folder) {
    const rel = parent.rel === '' ? entry.name : `${parent.rel}/${entry.name}`;
    if (entry.isFile()) {
      if (this.options.keepFile(rel)) this.kept.push(rel);
      return;
    }
    // A real subfolder of a canonical folder is canonical too: no realpath needed.
    const abs = parent.abs === '/' ? `/${entry.name}` : `${parent.abs}/${entry.name}`;
    if (entry.isDirectory()) this.enter({ abs, rel, depth: parent.depth + 1 });
    else if (entry.isSymbolicLink()) this.pool.push((done) => this.resolveLink(abs, rel, parent.depth + 1, done));
  }

  private enter(folder: Folder) {
    if (this.fences.has(folder.abs)) return this.skipped(folder.rel, 'fenced');
    // The root or another link's target: walked from there, not twice.
    if (this.starts.has(folder.abs)) return this.skipped(folder.rel, 'walked');
    if (this.options.skipDir?.(folder.rel, folder.abs)) return;
    this.checkDepth(folder);
    this.pool.push((done) => this.read(folder, done));
  }

  /** A link to a file is a file; a link to a folder waits for the end of the round. Broken links are no one's business. */
  private resolveLink(abs: string, rel: string, depth: number, done: () => void) {
    const pool = this.pool;
    stat(abs, (err, info) =>
      pool.attempt(() => {
        if (err || !info.isDirectory()) {
          if (info?.isFile() && this.options.keepFile(rel)) this.kept.push(rel);
          return done();
        }
        realpathCallback.native(abs, (failed, target) =>
          pool.attempt(() => {
            if (!failed) this.linksMet.push({ rel, target, depth });
            done();
          }),
        );
      }),
    );
  }

  /** The links met in the round just walked, in path order: the targets to walk next. */
  private async followLinks(): Promise<Folder[]> {
    const links = await sortPaced(this.linksMet, byRel, this.pacer);
    this.linksMet = [];
    const next: Folder[] = [];
    for (const link of links) {
      if (this.pacer.spent()) await this.pacer.nextTurn();
      this.options.signal?.throwIfAborted();
      if (this.options.skipDir?.(link.rel, link.target)) continue;
      const reason = this.reasonNotToFollow(link.target);
      if (reason) {
        this.skipped(link.rel, reason);
        continue;
      }
      const folder = { abs: link.target, rel: link.rel, depth: link.depth };
      this.checkDepth(folder);
      this.starts.add(link.target);
      next.push(folder);
    }
    return next;
  }

  private reasonNotToFollow(target: string): WalkSkipReason | undefined {
    if (isInside(this.root, target)) return 'inside-root';
    if (isInside(target, this.root)) return 'holds-root';
    // Looking up each folder above the target keeps this cheap with thousands of followed links.
    const above = [...selfAndAncestors(target)];
    if (above.some((folder) => this.fences.has(folder))) return 'fenced';
    if (above.some((folder) => this.starts.has(folder))) return 'walked';
    return undefined;
  }

  private checkDepth(folder: Folder) {
    const { maxDepth } = this.options.limits;
    if (folder.depth > maxDepth) throw new WalkLimitError('depth', maxDepth, folder.rel);
  }

  private skipped(rel: string, reason: WalkSkipReason) {
    if (this.options.onSkip) this.skipsMet.push({ rel, reason });
  }

  /** Reads finish in any order; sorting a round's skips keeps the log the same from run to run. */
  private async reportSkips() {
    const skips = await sortPaced(this.skipsMet, byRel, this.pacer);
    this.skipsMet = [];
    for (const { rel, reason } of skips) this.options.onSkip?.(rel, reason);
  }
}

const byRel = (a: { rel: string }, b: { rel: string }) => ascending(a.rel, b.rel);
