// The phases of a scan in order. Each saves its steps as it goes; one that returns early
// (finished: false) ran out of time, and the job is handed over from its last checkpoint.
import type { ScanContext } from '../context';
import { artwork } from './artwork';
import { details } from './details';
import { discover } from './discover';
import { finalize } from './finalize';
import { metadata } from './metadata';
import { plan } from './plan';
import { technical } from './technical';
import { write } from './write';

export { KEY_REFUSED_WARNING } from './metadata';

export const runPhases = async (ctx: ScanContext): Promise<'done' | 'handed-over'> => {
  const planned = await plan(ctx, await discover(ctx));
  const { finished, alreadyRead } = await write(ctx, planned);
  if (!finished || !(await technical(ctx, planned, alreadyRead))) return 'handed-over';
  const described = await metadata(ctx, planned, alreadyRead);
  if (!described.finished) return 'handed-over';
  if (!(await artwork(ctx, planned, described))) return 'handed-over';
  if (!(await details(ctx, planned, described))) return 'handed-over';
  if (ctx.enrichment.provider) ctx.log.info({ provider: ctx.enrichment.provider.stats }, 'metadata provider use');
  await finalize(ctx, planned);
  return 'done';
};
