// Pictures beside the videos are the library's artwork even with no provider to ask (no TMDB
// key, or fetching off): a scan stores them, the details hand out their URLs, and the poster's
// colours become the item's gradient.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { flatJpeg } from '../support/posters';
import { tempDir } from '../support/instance';
import { makeTree, mediaOf, scan } from '../support/media';
import { call } from '../support/stack';

it('a poster and a backdrop beside a film are stored and served with no provider', async () => {
  const root = tempDir('local-artwork');
  makeTree(root, ['Zardoz (1974)/Zardoz (1974).mkv'], 1024);
  writeFileSync(join(root, 'Zardoz (1974)/poster.jpg'), await flatJpeg(60, 90, '#803020'));
  writeFileSync(join(root, 'Zardoz (1974)/fanart.jpg'), await flatJpeg(160, 90, '#203080'));
  const job = await scan({ path: root, mediaType: 'movie' });
  assert.equal(job.status, 'completed');
  assert.equal(job.counts.artwork, 2);
  const movie = mediaOf((await call('GET', '/api/v1/movies?limit=100')).json.data).find((m: any) => m.title === 'Zardoz');
  const detail = (await call('GET', `/api/v1/movies/${movie.id}`)).json.data;
  assert.equal(detail.metadata.source, 'file');
  for (const url of [detail.poster, detail.backdrop]) {
    assert.ok(url, 'a URL for each picture');
    const res = await call('GET', `${new URL(url).pathname}${new URL(url).search}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'image/jpeg');
  }
});
