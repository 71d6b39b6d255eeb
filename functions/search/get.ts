import { operations } from '../../lib/api/operations';
import { services, watchingService } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';
import { searchCatalog } from '../../lib/search/service';

export const handler = http(operations.search, async ({ query, origin }) => {
  const hits = await searchCatalog(services.catalog, query.query, { type: query.type, limit: query.limit ?? 20, origin });
  return ok(await watchingService().withUserData(query.profileId ?? 'default', hits), { total: hits.length, nextCursor: null });
});
