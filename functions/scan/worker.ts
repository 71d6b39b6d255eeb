// The scan worker, invoked asynchronously with { jobId, run } (a scan) or { removeLibrary } (a
// library's removal). It works until its time is nearly up (or SCAN_SLICE_MS), then checkpoints
// and invokes itself to go on.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { config } from '../../lib/config';
import { scanEnrichment, services } from '../../lib/deps';
import type { RemovalRun, ScanRun } from '../../lib/scan/invoker';
import { runRemoval } from '../../lib/scan/library-removal';
import { runWorker } from '../../lib/scan/worker';
import { deploymentKey } from '../../lib/settings/deployment-key';

/** Time kept back for the last chunk, the checkpoint and the self-invocation. */
const RESERVE_MS = 60_000;

const deps = { ...services, enrichment: scanEnrichment(deploymentKey) };

const isScanRun = (event: unknown): event is ScanRun => {
  const e = event as Partial<ScanRun> | null;
  return typeof e?.jobId === 'string' && Number.isInteger(e.run) && (e.run as number) >= 0;
};

const isRemovalRun = (event: unknown): event is RemovalRun => typeof (event as Partial<RemovalRun> | null)?.removeLibrary === 'string';

export const handler = middy(async (event: unknown, context: Context) => {
  const untilTimeout = context.getRemainingTimeInMillis() - RESERVE_MS;
  const slice = config.scan.sliceMs > 0 ? Math.min(config.scan.sliceMs, untilTimeout) : untilTimeout;
  const deadline = Date.now() + Math.max(slice, 0);
  if (isRemovalRun(event)) {
    if ((await runRemoval(services, event.removeLibrary, deadline)) === 'more') await services.invoker.invoke(event);
    return;
  }
  if (!isScanRun(event)) {
    services.log.error({ event }, 'scan worker invoked without { jobId, run } or { removeLibrary }; ignored');
    return;
  }
  await runWorker(deps, event, deadline);
});
