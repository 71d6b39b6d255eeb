// The scan worker, invoked asynchronously with { jobId, run }. It works until its time is
// nearly up (or SCAN_SLICE_MS), then checkpoints and invokes itself to go on.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { config } from '../../lib/config';
import { scanEnrichment, services } from '../../lib/deps';
import type { WorkerPayload } from '../../lib/scan/invoker';
import { runWorker } from '../../lib/scan/worker';
import { deploymentKey } from '../../lib/settings/deployment-key';

/** Time kept back for the last chunk, the checkpoint and the self-invocation. */
const RESERVE_MS = 60_000;

const deps = { ...services, enrichment: scanEnrichment(deploymentKey) };

const isPayload = (event: unknown): event is WorkerPayload => {
  const e = event as Partial<WorkerPayload> | null;
  return typeof e?.jobId === 'string' && Number.isInteger(e.run) && (e.run as number) >= 0;
};

export const handler = middy(async (event: unknown, context: Context) => {
  if (!isPayload(event)) {
    services.log.error({ event }, 'scan worker invoked without { jobId, run }; ignored');
    return;
  }
  const untilTimeout = context.getRemainingTimeInMillis() - RESERVE_MS;
  const slice = config.scan.sliceMs > 0 ? Math.min(config.scan.sliceMs, untilTimeout) : untilTimeout;
  await runWorker(deps, event, Date.now() + Math.max(slice, 0));
});
