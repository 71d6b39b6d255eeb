// A folder that cannot be seen is not a folder that is empty. Before a scan plans anything it
// looks at its library's root: gone, unreadable, or empty while the library holds items (an
// unmounted disk leaves its empty mount point, a sleeping NAS answers nothing) makes the
// library offline, and the scan stops before it removes a thing. The next scan that finds the
// root again brings the library back online, with every item as it was.
import type { IndexEntry } from '../catalog/model';
import type { EventSink } from '../events/sink';
import type { Library } from '../library/model';
import { setLibraryStatus } from '../library/service';
import type { LibraryStore } from '../library/store';
import type { MediaStorage } from '../storage';
import { ScanFailure } from './failure';

export const offline = (reason: string) => new ScanFailure('library-offline', reason);

/** Throws library-offline when the root is gone or unreadable; else whether it is empty. */
export const probeLibraryRoot = async (storage: MediaStorage, library: Library): Promise<{ empty: boolean }> => {
  const probe = await storage.probeRoot(library.path);
  if (probe.state !== 'present')
    throw offline(`${probe.reason}. Nothing was removed; the library comes back online at the next scan that finds it.`);
  return { empty: probe.empty };
};

/** Throws library-offline for an empty root while the library holds items. */
export const checkNotEmptied = (library: Library, rootEmpty: boolean, index: IndexEntry[]) => {
  const held = index.filter((e) => e.entity !== 'tvshow').length;
  if (rootEmpty && held > 0) {
    throw offline(
      `The folder ${library.path} is empty although the library holds ${held} ${held === 1 ? 'item' : 'items'}: is its disk mounted? Nothing was removed. ` +
        'If the files were removed on purpose, delete the library.',
    );
  }
};

type StatusDeps = { libraries: LibraryStore; events: EventSink };

/** A scan found the root: an offline library is online again. */
export const markOnline = async (deps: StatusDeps, library: Library) => {
  if (library.status.state === 'offline') await setLibraryStatus(deps, library, 'online', null);
};

/** A scan stopped at an offline root: the library says so (once), and clients are told. */
export const markOffline = async (deps: StatusDeps, libraryId: string, reason: string) => {
  const library = await deps.libraries.get(libraryId);
  if (library) await setLibraryStatus(deps, library, 'offline', reason);
};
