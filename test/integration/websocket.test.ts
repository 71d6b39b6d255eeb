// /ws through the front door: ping/pong, error frames, the origin rule on $connect, and
// fan-out through the publisher in lib/ (used here from the test process, as a worker would).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connectionStore, eventPublisher } from '../../lib/deps';
import { waitFor } from '../support/instance';
import { stack } from '../support/stack';
import { WsClient } from '../support/ws';

const open: WsClient[] = [];
const connect = async (headers?: Record<string, string>) => {
  const c = await WsClient.open(stack.ws, headers);
  open.push(c);
  return c;
};
after(() => Promise.all(open.map((c) => c.close())));

describe('websocket', () => {
  it('answers ping with pong', async () => {
    const c = await connect();
    c.send({ type: 'ping' });
    assert.deepEqual(await c.next((m) => m.type === 'pong'), { type: 'pong' });
  });

  it('answers unknown and malformed messages with an error frame', async () => {
    const c = await connect();
    c.send('not json');
    c.send({ type: 'subscribe' });
    // Scans in other test files broadcast to every connection meanwhile: only error frames count.
    const errors = () => c.messages.filter((m) => m.type === 'error');
    const codes = await waitFor('two error frames', async () => (errors().length >= 2 ? errors().map((m) => m.error?.code) : undefined));
    assert.deepEqual(codes.sort(), ['invalid-message', 'unknown-message']);
  });

  it('accepts a LAN origin and refuses a foreign one', async () => {
    await connect({ Origin: 'http://192.168.0.10:8080' });
    await assert.rejects(
      connect({ Origin: 'https://evil.example' }),
      (err: { status?: number }) => err.status !== undefined && err.status >= 400,
    );
  });

  it("accepts the box's own page (same origin) and refuses a DNS-rebinding one", async () => {
    const host = new URL(stack.ws).host;
    await connect({ Origin: `http://${host}` });
    await assert.rejects(
      connect({ Origin: 'http://evil.example', Host: 'evil.example' }),
      (err: { status?: number }) => err.status !== undefined && err.status >= 400,
    );
  });

  it('refuses upgrades on other paths', async () => {
    await assert.rejects(WsClient.open(stack.ws.replace(/\/ws$/, '/socket')));
  });

  it('fans an event out to every connection and drops the ones that are gone', async () => {
    const a = await connect();
    const b = await connect();
    const ghost = `ghost${Date.now()}`;
    await connectionStore.add({ connectionId: ghost, connectedAt: new Date().toISOString(), client: 'test' });

    // Other tests create libraries meanwhile: this one looks for its own event.
    const event = { type: 'library:created', libraryId: `fanout${Date.now()}`, timestamp: new Date().toISOString() } as const;
    const result = await eventPublisher().publish(event);

    assert.deepEqual(await a.next((m) => m.type === 'library:created' && m.libraryId === event.libraryId), event);
    assert.deepEqual(await b.next((m) => m.type === 'library:created' && m.libraryId === event.libraryId), event);
    assert.ok(result.delivered >= 2);
    assert.ok(result.dropped >= 1);
    assert.equal(
      (await connectionStore.list()).some((c) => c.connectionId === ghost),
      false,
    );
  });

  it('forgets a connection when it closes', async () => {
    const before = new Set((await connectionStore.list()).map((c) => c.connectionId));
    const c = await connect();
    const mine = await waitFor('the new connection', async () => (await connectionStore.list()).find((x) => !before.has(x.connectionId)));
    await c.close();
    await waitFor('the connection to go', async () =>
      (await connectionStore.list()).some((x) => x.connectionId === mine.connectionId) ? undefined : true,
    );
  });
});
