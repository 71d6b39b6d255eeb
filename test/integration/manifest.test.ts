// The library manifest against the test run's DynamoDB Local: trusted only whole.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoManifestStore } from '../../lib/catalog/manifest';
import type { IndexEntry } from '../../lib/catalog/model';
import { db } from '../../lib/db/client';
import { keys } from '../../lib/db/table';

const entries = (n: number, tag: string): IndexEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `mv_${tag}${randomUUID()}`,
    entity: 'movie',
    addedAt: '2026-11-22T12:00:00.000Z',
    files: [
      { relPath: `Film ${i} (2001)/Film ${i} (2001) ${randomUUID()}.mkv`, size: i * 1000, mtimeMs: 1_700_000_000_000 + i, part: null },
    ],
  }));

describe('library manifest', () => {
  // Small parts, so a few hundred entries take several.
  const store = new DynamoManifestStore(db, 2_000);

  it('reads back what was written, across several parts', async () => {
    const library = randomUUID();
    assert.equal(await store.read(library), undefined);
    const tech = {
      durationSeconds: 42.5,
      container: 'matroska',
      bitrate: null,
      video: null,
      audio: [{ codec: 'aac', channels: 2, language: 'en' }],
      subtitles: [],
    };
    const written: IndexEntry[] = [
      ...entries(300, 'a'),
      { id: 'tv_x', entity: 'tvshow', addedAt: 'then', enrich: 'done' },
      {
        id: 'ep_x',
        entity: 'episode',
        addedAt: 'then',
        showId: 'tv_x',
        seasonNumber: 0,
        enrich: 'artwork',
        localStamp: 'still:S/Specials/x-thumb.jpg@2',
        files: [{ relPath: 'S/Specials/x.mkv', size: 1, mtimeMs: 2, part: null, tech }],
      },
      {
        id: 'ep_y',
        entity: 'episode',
        addedAt: 'then',
        showId: 'tv_x',
        seasonNumber: 0,
        enrich: 'local',
        files: [{ relPath: 'S/Specials/y.mkv', size: 1, mtimeMs: 2, part: null, tech: null }],
      },
    ];
    await store.write(library, 'job1', written);
    assert.deepEqual(await store.read(library), written);
  });

  it('takes the newest complete set, ignores an incomplete one, and is gone after drop', async () => {
    const library = randomUUID();
    const older = entries(200, 'o');
    const newer = entries(200, 'n');
    await store.write(library, 'job1', older);
    await store.write(library, 'job2', newer);
    assert.deepEqual(await store.read(library), newer);
    // A crash part-way through writing job3's set: its parts are not all there.
    await store.write(library, 'job3', entries(200, 'c'));
    await db().doc.send(new DeleteCommand({ TableName: db().tableName, Key: keys.manifestPart(library, 'job3', 1) }));
    assert.deepEqual(await store.read(library), undefined, 'job2 set was replaced, job3 set is broken: nothing is trusted');
    await store.drop(library);
    assert.equal(await store.read(library), undefined);
  });
});
