// From a media id to the file to send: the id is the only input, the path comes from the
// catalogue, and the file must still be there, inside its library's folder once symlinks are
// resolved (the storage adapter checks that). A file whose library folder is offline is a 503
// media-offline with Retry-After; anything else is a 404 that says no more than "not found".
import { lookup } from 'mime-types';
import { containerOf, type FileRef } from '../catalog/model';
import type { CatalogStore } from '../catalog/store';
import { mediaOffline, notFound } from '../errors';
import type { Library } from '../library/model';
import type { LibraryStore } from '../library/store';
import type { LocatedFile, MediaStorage } from '../storage';

export interface StreamTarget extends LocatedFile {
  contentType: string;
  /** Strong: size and mtime, so If-Range can trust it. */
  etag: string;
  lastModified: string;
}

// Containers mime-types does not know, or knows under another name than players expect.
const CONTAINER_TYPES: Record<string, string> = {
  mkv: 'video/x-matroska',
  ts: 'video/mp2t',
  m2ts: 'video/mp2t',
  mts: 'video/mp2t',
  wmv: 'video/x-ms-wmv',
  avi: 'video/x-msvideo',
};

/** A file on this machine's disk, which the service sends itself. */
export type LocalStreamTarget = StreamTarget & { path: string };

export const contentTypeOf = (relPath: string) => {
  const ext = containerOf(relPath) ?? '';
  return CONTAINER_TYPES[ext] || lookup(ext) || 'application/octet-stream';
};

/**
 * A file of a library as it is now. When it is not there, its disk may only be away (unmounted,
 * asleep): that is said, with when to ask again (503 media-offline), rather than "gone".
 */
export const locateInLibrary = async (
  storage: MediaStorage,
  library: Library,
  relPath: string,
  what: string,
  gone: () => Error,
): Promise<LocatedFile> => {
  const located = await storage.locate(library.path, relPath);
  if (located) return located;
  const root = await storage.probeRoot(library.path);
  if (library.status.state === 'offline' || root.state !== 'present' || root.empty) throw mediaOffline(what);
  throw gone();
};

/** The file of a movie or an episode (part 1 unless another is named) with the catalogue's record of it. */
export const resolveFile = async (
  deps: { catalog: CatalogStore; libraries: LibraryStore; storage: MediaStorage },
  mediaId: string,
  part = 1,
): Promise<{ file: FileRef; target: StreamTarget }> => {
  const gone = () => notFound(`Media ${mediaId}${part > 1 ? ` part ${part}` : ''}`);
  const item = await deps.catalog.get(mediaId);
  if (!item || item.entity === 'tvshow') throw gone();
  const file = item.files[part - 1];
  if (!file) throw gone();
  const library = await deps.libraries.get(item.libraryId);
  if (!library) throw gone();
  const located = await locateInLibrary(deps.storage, library, file.relPath, `Media ${mediaId}`, gone);
  const target = {
    ...located,
    contentType: contentTypeOf(file.relPath),
    etag: `"${located.size.toString(16)}-${Math.trunc(located.mtimeMs).toString(16)}"`,
    lastModified: new Date(Math.trunc(located.mtimeMs / 1000) * 1000).toUTCString(),
  };
  return { file, target };
};

export const resolveStream = async (
  deps: { catalog: CatalogStore; libraries: LibraryStore; storage: MediaStorage },
  mediaId: string,
  part = 1,
): Promise<StreamTarget> => (await resolveFile(deps, mediaId, part)).target;
