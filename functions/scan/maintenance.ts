// The scans' maintenance, in one module so that at home offline loads one bundle for both:
// - `recover`, run by the local runner each time the handlers (re)start: no worker survives a
//   restart, so jobs left queued or running are orphans. They become interrupted and resume on
//   their own when `features.autoResumeScans` is on. Returns what it did.
// - `upkeep`, the library's upkeep (lib/scan/upkeep.ts): at home the runner invokes it every few
//   seconds with what its folder watchers saw; in the cloud an EventBridge schedule invokes it
//   (with an event of its own, read as "nothing changed"), so scheduled rescans run in both.
// - `disk`, run by the local runner when the free space of DATA_DIR turns low or has room again
//   (infra/runner/disk-watch.ts): caches give their space back, scans paused for space go on,
//   and clients get `system:status`. There is no such disk in the cloud.
// `recover` and `upkeep` also start again the removal of a library whose run died
// (lib/scan/library-removal.ts).
import middy from '@middy/core';
import { config } from '../../lib/config';
import { db } from '../../lib/db/client';
import { playbackSegments, services, settingsStore } from '../../lib/deps';
import { getStoredSettings } from '../../lib/settings/service';
import { dataDisk, diskStatus, systemStatus } from '../../lib/health/service';
import { reclaimCaches, resumePausedForSpace } from '../../lib/scan/disk-full';
import { resumeRemovals } from '../../lib/scan/library-removal';
import { recoverJobs } from '../../lib/scan/recovery';
import { runUpkeep, type UpkeepInput } from '../../lib/scan/upkeep';

export const recover = middy(async () => {
  const settings = await getStoredSettings(settingsStore);
  const recovered = await recoverJobs(services, settings.features.autoResumeScans);
  // Scans paused for space go on once there is room, restart or not.
  const low = diskStatus(dataDisk())?.state === 'low';
  const result = {
    ...recovered,
    resumedAfterSpace: low ? 0 : await resumePausedForSpace(services),
    // No removal's run survives a restart either.
    removalsResumed: (await resumeRemovals(services, 0)).length,
  };
  if (result.interrupted || result.requeued || result.removalsResumed)
    services.log.info({ ...result, version: config.version }, 'scan jobs recovered after a restart');
  return result;
});

const inputOf = (event: unknown): UpkeepInput => {
  const e = (event ?? {}) as UpkeepInput;
  return {
    changed: Array.isArray(e.changed)
      ? e.changed
          .filter((c) => typeof c?.libraryId === 'string' && typeof c?.path === 'string')
          // A time that is not one says nothing of what saw the changes: they are scanned.
          .map(({ libraryId, path, before }) => ({ libraryId, path, ...(Number.isFinite(before) ? { before } : {}) }))
      : [],
    watching: Array.isArray(e.watching)
      ? e.watching.filter((w) => typeof w?.libraryId === 'string' && (w.problem === null || typeof w.problem === 'string'))
      : [],
  };
};

export const upkeep = middy(async (event: unknown) => {
  const settings = await getStoredSettings(settingsStore);
  const result = await runUpkeep(services, inputOf(event), { monitoring: settings.features.realtimeMonitoring });
  if (result.started.length) services.log.info({ started: result.started }, 'library upkeep started scans');
  const removals = await resumeRemovals(services);
  if (removals.length) services.log.info({ libraries: removals }, 'library upkeep restarted removals whose run fell silent');
  return result;
});

export const disk = middy(async () => {
  const status = await systemStatus(db(), dataDisk());
  const low = status.disk?.state === 'low';
  const freedBytes = low ? await reclaimCaches({ ...services, playbackSegments: playbackSegments() ?? undefined }, services.log) : 0;
  const resumed = low ? 0 : await resumePausedForSpace(services);
  await services.events.emit({ type: 'system:status', ...status });
  return { state: status.disk?.state ?? 'unknown', freedBytes, resumed };
});
