import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replyTo } from '../../../lib/events/client-messages';

describe('replyTo', () => {
  it('answers ping with pong', () => assert.deepEqual(replyTo('{"type":"ping"}'), { type: 'pong' }));
  const bad: Array<[string | undefined, string]> = [
    [undefined, 'invalid-message'],
    ['', 'invalid-message'],
    ['not json', 'invalid-message'],
    ['x'.repeat(40_000), 'invalid-message'],
    ['null', 'unknown-message'],
    ['[]', 'unknown-message'],
    ['{"type":42}', 'unknown-message'],
    ['{"type":"subscribe"}', 'unknown-message'],
  ];
  for (const [body, code] of bad) {
    it(`answers ${JSON.stringify(body?.slice(0, 20))} with an ${code} error frame`, () => {
      const reply = replyTo(body);
      assert.equal(reply.type, 'error');
      assert.equal(reply.type === 'error' && reply.error.code, code);
    });
  }
});
