// Media trees on disk for scan tests (sparse files: sizes without the bytes), and waiting on
// scan jobs through the API.
import assert from 'node:assert/strict';
import { mkdirSync, openSync, closeSync, ftruncateSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { waitFor } from './instance';
import { call, jsonBody } from './stack';

/** Creates each file (and its folders) under root; returns root. */
export const makeTree = (root: string, relPaths: string[], size = 1024 * 1024) => {
  for (const rel of relPaths) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'w');
    ftruncateSync(fd, size);
    closeSync(fd);
  }
  return root;
};

export const FINISHED = new Set(['completed', 'failed', 'interrupted']);

export const getJob = async (jobId: string, base?: string) => {
  const res = await call('GET', `/api/v1/scan/jobs/${jobId}`, { ...(base ? { base } : {}) });
  if (res.status !== 200) throw new Error(`GET job ${jobId}: ${res.status} ${res.text}`);
  return res.json.data;
};

/**
 * Polls a job until it is in one of `statuses` (by default finished: completed, failed or
 * interrupted). A job being recovered passes through interrupted on its way back to running.
 */
export const waitForJob = (jobId: string, base?: string, timeoutMs = 120_000, statuses: Set<string> = FINISHED) =>
  waitFor(
    `scan job ${jobId} to finish`,
    async () => {
      const job = await getJob(jobId, base);
      return statuses.has(job.status) ? job : undefined;
    },
    timeoutMs,
    100,
  );

export const DONE = new Set(['completed', 'failed']);

/** Starts a scan and waits for it: the finished job. */
export const scan = async (body: Record<string, unknown>, base?: string) => {
  const res = await call('POST', '/api/v1/scan/path', { ...jsonBody(body), ...(base ? { base } : {}) });
  if (res.status !== 202) throw new Error(`POST /scan/path: ${res.status} ${res.text}`);
  return waitForJob(res.json.data.jobId, base);
};

/** Every page of a list endpoint, following nextCursor. */
/**
 * The media objects of a list's entries, after checking each entry has the one list shape
 * `{ id, type, media, userData }` that search hits have too.
 */
export const mediaOf = (entries: any[]): any[] =>
  entries.map((e) => {
    assert.deepEqual(
      Object.keys(e).sort(),
      ['id', 'media', 'type', 'userData'],
      `a list entry is { id, type, media, userData }: ${JSON.stringify(e).slice(0, 200)}`,
    );
    assert.deepEqual(Object.keys(e.userData).sort(), ['favorite', 'lastPlayedAt', 'playCount', 'played', 'positionSeconds', 'progress']);
    assert.equal(e.media.id, e.id);
    assert.equal(e.media.type, e.type);
    return e.media;
  });

/** Every page of a recent list, as media objects (entries checked by mediaOf). */
export const allPages = async (path: string, base?: string, limit = 100) => {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await call('GET', `${path}?${query}`, { ...(base ? { base } : {}) });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    items.push(...mediaOf(res.json.data));
    cursor = res.json.meta.nextCursor;
  } while (cursor);
  return items;
};
