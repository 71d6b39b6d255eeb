// The library domain: list, create, totals, one library with its stats, delete (at once, or in the background).
import { operations } from '../../lib/api/operations';
import { services } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { accepted, created, noContent, ok } from '../../lib/http/reply';
import { createLibrary, getLibrary, statsOf, toView, updateLibrary } from '../../lib/library/service';
import { requestRemoval, toRemovalView } from '../../lib/scan/library-removal';

export const list = http(operations.listLibraries, async () => {
  const libraries = (await services.libraries.list()).map(toView);
  return ok(libraries, { total: libraries.length, nextCursor: null });
});

export const create = http(operations.createLibrary, async ({ body }, { log }) => {
  const library = await createLibrary(services, body);
  log.info({ libraryId: library.id, path: library.path }, 'library created');
  return created(toView(library));
});

export const stats = http(operations.libraryStats, async () => ok(statsOf(await services.libraries.list())));

export const get = http(operations.getLibrary, async ({ params }) => {
  const library = await getLibrary(services, params.libraryId);
  return ok({ ...toView(library), stats: statsOf([library]) });
});

export const patch = http(operations.patchLibrary, async ({ params, body }, { log }) => {
  const library = await updateLibrary(services, params.libraryId, body);
  log.info({ libraryId: library.id, changes: Object.keys(body) }, 'library updated');
  return ok(toView(library));
});

export const remove = http(operations.deleteLibrary, async ({ params }, { log }) => {
  const removing = await requestRemoval(services, params.libraryId);
  if (!removing) {
    log.info({ libraryId: params.libraryId }, 'library deleted');
    return noContent();
  }
  const view = toRemovalView(removing);
  log.info({ libraryId: params.libraryId, items: view.items }, 'library being removed');
  return accepted(view);
});
