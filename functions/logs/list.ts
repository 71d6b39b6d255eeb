import { operations } from '../../lib/api/operations';
import { dependencyUnavailable } from '../../lib/errors';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';
import { logReader } from '../../lib/logs';

export const handler = http(operations.listLogs, async ({ query }) => {
  const reader = logReader();
  if (!reader) throw dependencyUnavailable('log store');
  const records = await reader.read({ ...query, limit: query.limit ?? 100 });
  return ok(records, { total: records.length, nextCursor: null });
});
