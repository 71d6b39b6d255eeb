// The Jellyfin door's GUIDs: each kind of our ids gives the same GUID every time, and the way
// back finds it again; different things never share one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { movieId, episodeId, showId } from '../../../lib/catalog/ids';
import {
  collectionGuid,
  collectionIdOf,
  itemGuid,
  itemIdsOf,
  nameGuid,
  normalGuid,
  profileGuid,
  profileIdOf,
  seasonCandidates,
  seasonGuid,
} from '../../../lib/jellyfin/guid';

const GUID = /^[0-9a-f]{32}$/u;

describe('the door GUIDs', () => {
  it('gives films, shows and episodes a GUID whose candidates hold the id', () => {
    for (let i = 0; i < 200; i++) {
      for (const id of [movieId('lib', `Film ${i}`), showId('lib', `show ${i}`), episodeId('lib', `Show/S01E0${i}.mkv`, 1, i)]) {
        const guid = itemGuid(id);
        assert.match(guid, GUID);
        assert.equal(itemGuid(id), guid, 'the same every time');
        const candidates = itemIdsOf(guid);
        assert.equal(candidates.length, 48);
        assert.ok(candidates.includes(id), `${id} among the candidates of ${guid}`);
        assert.ok(
          candidates.every((c) => c === id || itemGuid(c) === guid),
          'the candidates are the ids of the same GUID',
        );
      }
    }
  });

  it("finds a season's show and number among its candidates, for every number a season may have", () => {
    const show = showId('lib', 'a show');
    for (const season of [0, 1, 2, 10, 99, 2024, 2200]) {
      const guid = seasonGuid(show, season);
      assert.notEqual(guid, itemGuid(show));
      const found = seasonCandidates(guid).filter((c) => c.showGuid === itemGuid(show));
      assert.deepEqual(found, [{ showGuid: itemGuid(show), season }]);
    }
    assert.throws(() => seasonGuid(show, 2201), /Not a season number/);
  });

  it('goes back from profiles and collections, and reads GUIDs the apps write dashed or braced', () => {
    for (const id of ['default', 'pf_0123456789abcdef']) assert.equal(profileIdOf(profileGuid(id)), id);
    assert.equal(collectionIdOf(collectionGuid(119)), 119);
    const guid = itemGuid(movieId('lib', 'x'));
    const dashed = `{${guid.slice(0, 8)}-${guid.slice(8, 12)}-${guid.slice(12, 16)}-${guid.slice(16, 20)}-${guid.slice(20).toUpperCase()}}`;
    assert.equal(normalGuid(dashed), guid);
    assert.equal(normalGuid('not-a-guid'), undefined);
  });

  it('keeps people and genres with long names apart, whatever their case', () => {
    assert.notEqual(nameGuid('person', 'Christopher Nolan'), nameGuid('person', 'Christopher Walken'));
    assert.notEqual(nameGuid('person', 'Drama'), nameGuid('genre', 'Drama'));
    assert.equal(nameGuid('genre', 'Science Fiction'), nameGuid('genre', 'science fiction'));
    assert.match(nameGuid('genre', 'Science Fiction'), GUID);
  });
});
