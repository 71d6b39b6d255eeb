// The check of the Jellyfin door's answers against Jellyfin 10.11.0's OpenAPI document
// (test/support/jellyfin-openapi.ts): that it finds the operation a request path names, and
// reports by JSON path what a Kotlin app would throw on. Skips when the document is absent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertJellyfinAnswer, checkJellyfinAnswer, checkJellyfinSchema, jellyfinSchemaAvailable } from '../../support/jellyfin-openapi';

const skip = jellyfinSchemaAvailable() ?? false;

const ID = '8f1c0c2b3a4d4e5f8a9b0c1d2e3f4a5b';
const userData = () => ({ PlaybackPositionTicks: 0, PlayCount: 0, IsFavorite: false, Played: false, Key: ID, ItemId: ID });
/** A film as the door might write it: the three non-nullable properties of BaseItemDto and a few nullable ones. */
const film = (): Record<string, unknown> => ({
  Id: ID,
  Type: 'Movie',
  MediaType: 'Video',
  Name: 'Alien',
  RunTimeTicks: 70_020_000_000,
  DateCreated: '2024-05-01T12:00:00.0000000Z',
  ImageTags: { Primary: 'a1b2' },
  UserData: userData(),
});
const page = (items: unknown[]) => ({ Items: items, TotalRecordCount: items.length, StartIndex: 0 });

describe('checkJellyfinAnswer', { skip }, () => {
  it('passes a minimal PublicSystemInfo', () => {
    const info = { Id: ID, ServerName: 'Home', Version: '10.11.0', ProductName: 'Jellyfin Server', StartupWizardCompleted: true };
    assert.deepEqual(checkJellyfinAnswer('GET', '/System/Info/Public', 200, info), []);
  });

  it('passes a page of items, also under /emby and with a query string', () => {
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items', 200, page([film(), film()])), []);
    assert.deepEqual(checkJellyfinAnswer('GET', '/emby/Items?ParentId=abc&Limit=2', 200, page([film()])), []);
  });

  it('reports a missing non-nullable property by its path', () => {
    const second = film();
    delete (second.UserData as Record<string, unknown>).Played;
    const first = film();
    delete first.Id;
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items', 200, page([first, second])), [
      '$.Items[0]: missing non-nullable property Id',
      '$.Items[1].UserData: missing non-nullable property Played',
    ]);
  });

  it('reports a null where the document allows none', () => {
    const problems = checkJellyfinAnswer('GET', '/Items', 200, { ...page([{ ...film(), Id: null }]), TotalRecordCount: null });
    assert.deepEqual(problems, [
      '$.Items[0].Id: null where the document allows none',
      '$.TotalRecordCount: null where the document allows none',
    ]);
  });

  it('reports a value outside an enum, once though the document names the enum twice', () => {
    const problems = checkJellyfinAnswer('GET', '/Items', 200, page([{ ...film(), Type: 'Film' }]));
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /^\$\.Items\[0\]\.Type: string "Film" is not one of AggregateFolder, /);
  });

  it('lets a nullable property be absent or null, a nullable enum and reference included', () => {
    const bare = { Id: ID, Type: 'Series', MediaType: 'Unknown', LocationType: null, UserData: null, Name: null };
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items', 200, page([bare])), []);
  });

  it('reports wrong types and formats, and takes a dashed GUID', () => {
    const item = { ...film(), Id: 'not-a-guid', RunTimeTicks: '7002', DateCreated: '2024-05-01 12:00', ImageTags: { Primary: 3 } };
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items', 200, page([item])), [
      '$.Items[0].Id: not a valid uuid: string "not-a-guid"',
      '$.Items[0].DateCreated: not a valid date-time: string "2024-05-01 12:00"',
      '$.Items[0].RunTimeTicks: expected integer (int64), got string "7002"',
      '$.Items[0].ImageTags.Primary: expected string, got number 3',
    ]);
    const dashed = { ...film(), Id: '8f1c0c2b-3a4d-4e5f-8a9b-0c1d2e3f4a5b' };
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items', 200, page([dashed])), []);
  });

  it('reports a property the schema does not declare, as its additionalProperties: false says', () => {
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items', 200, page([{ ...film(), Userdata: {} }])), [
      '$.Items[0]: unexpected property Userdata (BaseItemDto declares no such property)',
    ]);
  });

  it('wants an array from /Items/Latest, a literal segment beating /Items/{itemId}', () => {
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items/Latest', 200, [film()]), []);
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items/Latest', 200, page([film()])), [
      '$: expected array, got object {"Items":[{"Id":"8f1c0c2b3a4d4e5f8a9b...',
    ]);
    assert.deepEqual(checkJellyfinAnswer('GET', `/Items/${ID}`, 200, film()), []);
  });

  it('matches paths case-insensitively', () => {
    const answer = { User: { Id: ID, HasPassword: true, HasConfiguredPassword: true }, AccessToken: 'abc', ServerId: ID };
    assert.deepEqual(checkJellyfinAnswer('post', '/users/authenticatebyname', 200, answer), [
      '$.User: missing non-nullable property HasConfiguredEasyPassword',
    ]);
  });

  it('says so when the document has no such path, operation or status', () => {
    assert.deepEqual(checkJellyfinAnswer('GET', '/Users/abc/Items/Latest', 200, []), [
      "/Users/abc/Items/Latest: no path of Jellyfin's document matches",
    ]);
    assert.deepEqual(checkJellyfinAnswer('PUT', '/Items/abc', 200, {}), [
      'PUT /Items/{itemId}: the document has no such operation (only POST, DELETE, GET)',
    ]);
    assert.deepEqual(checkJellyfinAnswer('GET', '/Items/abc', 404, {}), [
      'GET /Items/{itemId}: the document declares no 404 answer (only 200, 401, 403, 503)',
    ]);
  });

  it('wants no body where the document declares none', () => {
    assert.deepEqual(checkJellyfinAnswer('DELETE', '/Items/abc', 204, undefined), []);
    assert.deepEqual(checkJellyfinAnswer('DELETE', '/Items/abc', 204, { ok: true }), [
      'DELETE /Items/{itemId} 204: the document declares no body, got object {"ok":true}',
    ]);
  });
});

describe('assertJellyfinAnswer', { skip }, () => {
  it('passes a fitting answer and throws an AssertionError listing at most 30 problems', () => {
    assertJellyfinAnswer('GET', '/Items/Latest', 200, [film()]);
    const items = Array.from({ length: 40 }, () => ({ ...film(), Id: undefined }));
    assert.throws(
      () => assertJellyfinAnswer('GET', '/Items/Latest', 200, items),
      (err: unknown) => {
        assert.ok(err instanceof assert.AssertionError);
        const lines = err.message.split('\n');
        assert.match(lines[0] ?? '', /^GET \/Items\/Latest 200 does not fit Jellyfin 10\.11\.0's document \(40 problems\):$/);
        assert.equal(lines[1], '  $[0]: missing non-nullable property Id');
        assert.equal(lines.length, 32);
        assert.equal(lines.at(-1), '  ... and 10 more');
        return true;
      },
    );
  });
});

describe('checkJellyfinSchema', { skip }, () => {
  it('checks a value against a named schema', () => {
    assert.deepEqual(
      checkJellyfinSchema('UserDto', { Id: ID, HasPassword: false, HasConfiguredPassword: false, HasConfiguredEasyPassword: false }),
      [],
    );
    assert.deepEqual(checkJellyfinSchema('UserDto', { Id: ID, HasConfiguredPassword: false, HasConfiguredEasyPassword: false }), [
      '$: missing non-nullable property HasPassword',
    ]);
    assert.deepEqual(checkJellyfinSchema('NoSuchDto', {}), ["Jellyfin's document has no schema named NoSuchDto"]);
  });

  it('follows a WebSocket message to its kind by the discriminator', () => {
    const message = { MessageType: 'UserDataChanged', MessageId: ID, Data: { UserId: ID, UserDataList: [userData()] } };
    assert.deepEqual(checkJellyfinSchema('OutboundWebSocketMessage', message), []);
    const { Played: _played, ...unplayed } = userData();
    assert.deepEqual(checkJellyfinSchema('OutboundWebSocketMessage', { ...message, Data: { UserId: ID, UserDataList: [unplayed] } }), [
      '$.Data.UserDataList[0]: missing non-nullable property Played',
    ]);
    assert.match(
      checkJellyfinSchema('OutboundWebSocketMessage', { ...message, MessageType: 'Hello' })[0] ?? '',
      /^\$\.MessageType: string "Hello" is not one of /,
    );
    // KeepAlive is both an inbound and an outbound kind: either fits.
    assert.deepEqual(checkJellyfinSchema('WebSocketMessage', { MessageType: 'KeepAlive', MessageId: ID }), []);
  });
});

describe('jellyfinSchemaAvailable', () => {
  it('gives a reason to skip, naming the path, when the document is not there', () => {
    const before = process.env.JELLYFIN_OPENAPI;
    process.env.JELLYFIN_OPENAPI = '/nonexistent/openapi.json';
    try {
      assert.match(jellyfinSchemaAvailable() ?? '', /not at \/nonexistent\/openapi\.json \(set JELLYFIN_OPENAPI/);
    } finally {
      if (before === undefined) delete process.env.JELLYFIN_OPENAPI;
      else process.env.JELLYFIN_OPENAPI = before;
    }
  });
});
