// Jellyfin's UDP discovery in a whole instance: once it is up, the question sent to its
// discovery port is answered with the door's URL, the id the door itself reports and the name;
// after a stop the port is free. A discovery port someone else holds costs only discovery.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort } from '../../infra/runner/ports';
import { startInstance } from '../support/instance';
import { call } from '../support/stack';

/** Binds UDP `port` on loopback alone (no SO_REUSEADDR): it fails while another socket holds it. */
const holdUdp = async (port: number): Promise<Socket> => {
  const socket = createSocket({ type: 'udp4', reuseAddr: false });
  socket.bind(port, '127.0.0.1');
  await once(socket, 'listening');
  return socket;
};

/** A free TCP port (the door's) and one free for UDP too (discovery's). */
const ports = async () => {
  const door = await freePort();
  let discovery = await freePort();
  while (discovery === door) discovery = await freePort();
  (await holdUdp(discovery)).close();
  return { door, discovery };
};

const ask = async (port: number): Promise<Record<string, unknown>> => {
  const socket = createSocket('udp4');
  try {
    socket.bind(0, '127.0.0.1');
    await once(socket, 'listening');
    const reply = once(socket, 'message', { signal: AbortSignal.timeout(5_000) });
    socket.send('who is JellyfinServer?', port, '127.0.0.1');
    const [message] = (await reply) as [Buffer];
    return JSON.parse(message.toString('utf8')) as Record<string, unknown>;
  } finally {
    socket.close();
  }
};

describe('Jellyfin discovery in an instance', () => {
  it('answers with the door, its server id and name, and lets the port go on stop', async () => {
    const { door, discovery } = await ports();
    const instance = await startInstance({
      env: { JELLYFIN_PORT: String(door), JELLYFIN_DISCOVERY: String(discovery), JELLYFIN_SERVER_NAME: 'Discovery Box' },
    });
    try {
      const info = await call('GET', '/System/Info/Public', { base: `http://127.0.0.1:${door}` });
      assert.equal(info.status, 200);
      const { Id } = info.json as { Id: string };
      assert.deepEqual(await ask(discovery), {
        Address: `http://127.0.0.1:${door}`,
        Id,
        Name: 'Discovery Box',
        EndpointAddress: null,
      });
    } finally {
      await instance.stop();
    }
    (await holdUdp(discovery)).close();
  });

  it('runs on without discovery when its port is taken, and says so', async () => {
    const { door, discovery } = await ports();
    const holder = await holdUdp(discovery);
    try {
      const instance = await startInstance({ env: { JELLYFIN_PORT: String(door), JELLYFIN_DISCOVERY: String(discovery) } });
      try {
        const log = readFileSync(join(instance.dataDir, 'logs', 'service.log'), 'utf8');
        assert.match(log, /"level":"warn".*Jellyfin discovery could not start; the service runs on without it/);
        assert.equal((await call('GET', '/System/Info/Public', { base: `http://127.0.0.1:${door}` })).status, 200);
      } finally {
        await instance.stop();
      }
    } finally {
      holder.close();
    }
  });
});
