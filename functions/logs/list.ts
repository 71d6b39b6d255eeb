import { operations } from '../../lib/api/operations';
import { config } from '../../lib/config';
import { dependencyUnavailable } from '../../lib/errors';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';
import { readLogs } from '../../lib/logs/reader';

export const handler = http(operations.listLogs, async ({ query }) => {
  if (!config.logDir) throw dependencyUnavailable('log store');
  const records = await readLogs(config.logDir, { ...query, limit: query.limit ?? 100 });
  return ok(records, { total: records.length, nextCursor: null });
});
