// Jellyfin's UDP discovery on a real socket on loopback: the reply's exact JSON to the question
// in any case or within other text, silence for anything else, the address a loopback asker is
// given, the reply limit under a flood, and a closed discovery's port free again. Then the
// address and the listening addresses chosen from the box's interfaces, and the limit's windows.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import type { NetworkInterfaceInfo } from 'node:os';
import { afterEach, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import {
  listenAddresses,
  MAX_QUESTION_BYTES,
  replyAddress,
  ReplyLimit,
  REPLIES_PER_SOURCE,
  startDiscovery,
  type Discovery,
} from '../../../infra/gateway/jellyfin-discovery';

const log = pino({ level: 'silent' });
const SERVER_ID = '0123456789abcdef0123456789abcdef';
const options = (host = '127.0.0.1') => ({ port: 0, doorPort: 8096, serverId: SERVER_ID, name: 'Living Room', host, log });
const expected = (address: string) =>
  `{"Address":"http://${address}:8096","Id":"${SERVER_ID}","Name":"Living Room","EndpointAddress":null}`;

interface Asker {
  replies: string[];
  send(message: string | Buffer): Promise<void>;
  /** Resolves once `count` replies came (fails after a second). */
  until(count: number): Promise<void>;
  close(): void;
}

/** A client on 127.0.0.1 asking the discovery on `port`. */
const asker = async (port: number): Promise<Asker> => {
  const socket: Socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const replies: string[] = [];
  socket.on('message', (message) => replies.push(message.toString('utf8')));
  return {
    replies,
    send: (message) => new Promise((resolve, reject) => socket.send(message, port, '127.0.0.1', (err) => (err ? reject(err) : resolve()))),
    until: async (count) => {
      for (let waited = 0; replies.length < count; waited += 10) {
        if (waited > 1_000) throw new Error(`${replies.length} replies, not ${count}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => socket.close(),
  };
};

/** Binds `port` on loopback without SO_REUSEADDR: fails while any other socket holds it. */
const bindAlone = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = createSocket({ type: 'udp4', reuseAddr: false });
    socket.once('error', (err) => {
      socket.close();
      reject(err);
    });
    socket.bind(port, '127.0.0.1', () => resolve(socket));
  });

describe('Jellyfin discovery on a socket', () => {
  let discovery: Discovery;
  let client: Asker;

  beforeEach(async () => {
    discovery = await startDiscovery(options());
    client = await asker(discovery.port);
  });

  afterEach(async () => {
    client.close();
    await discovery.close();
  });

  it('answers the question with the door, the id and the name, as Jellyfin does', async () => {
    await client.send('who is JellyfinServer?');
    await client.until(1);
    assert.deepEqual(client.replies, [expected('127.0.0.1')]);
  });

  it('answers the question in any case and within other text', async () => {
    await client.send('WHO IS JELLYFINSERVER?');
    await client.send('hello, who is jellyfinserver? from a tv');
    await client.until(2);
    assert.deepEqual(client.replies, [expected('127.0.0.1'), expected('127.0.0.1')]);
  });

  it('ignores other text, garbage, an empty and an oversized datagram', async () => {
    await client.send('who is EmbyServer?');
    await client.send(Buffer.from([0xff, 0x00, 0xfe, 0x80, 0xc3]));
    await client.send(Buffer.alloc(0));
    await client.send(`who is JellyfinServer?${' '.repeat(MAX_QUESTION_BYTES)}`);
    // Datagrams on loopback come in order: once the last is answered, the others were read.
    await client.send('who is JellyfinServer?');
    await client.until(1);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(client.replies, [expected('127.0.0.1')]);
  });

  it('answers a flood from one address a few times only', async () => {
    for (let i = 0; i < 200; i++) await client.send('who is JellyfinServer?');
    await client.until(1);
    await new Promise((r) => setTimeout(r, 100));
    // The burst may straddle two one-second windows.
    assert.ok(client.replies.length <= 2 * REPLIES_PER_SOURCE, `${client.replies.length} replies`);
  });

  it('frees its port when closed', async () => {
    await assert.rejects(bindAlone(discovery.port), { code: 'EADDRINUSE' });
    await discovery.close();
    (await bindAlone(discovery.port)).close();
  });
});

describe('Jellyfin discovery on every interface', () => {
  let discovery: Discovery;

  beforeEach(async () => {
    discovery = await startDiscovery(options('0.0.0.0'));
  });

  afterEach(async () => {
    await discovery.close();
  });

  it('gives an asker on loopback the loopback address', async () => {
    const client = await asker(discovery.port);
    try {
      await client.send('who is JellyfinServer?');
      await client.until(1);
      assert.deepEqual(client.replies, [expected('127.0.0.1')]);
    } finally {
      client.close();
    }
  });
});

describe('Jellyfin discovery on a port taken', () => {
  it('rejects, leaving nothing bound', async () => {
    const holder = await bindAlone(0);
    const { port } = holder.address();
    try {
      await assert.rejects(startDiscovery({ ...options(), port }), { code: 'EADDRINUSE' });
    } finally {
      holder.close();
    }
    (await bindAlone(port)).close();
  });
});

const iface = (address: string, netmask: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask,
  family: 'IPv4',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: null,
});
const box = {
  lo: [iface('127.0.0.1', '255.0.0.0', true)],
  eth0: [iface('192.168.1.20', '255.255.255.0')],
  wlan0: [iface('10.0.0.7', '255.255.0.0')],
};

describe('the address a reply names', () => {
  it('is the one on the asker’s subnet', () => {
    assert.equal(replyAddress('192.168.1.77', '0.0.0.0', box), '192.168.1.20');
    assert.equal(replyAddress('10.0.200.3', '0.0.0.0', box), '10.0.0.7');
  });

  it('is the first outward one for an asker elsewhere, loopback for one on loopback or a box with none', () => {
    assert.equal(replyAddress('172.16.0.9', '::', box), '192.168.1.20');
    assert.equal(replyAddress('127.0.0.1', '0.0.0.0', box), '127.0.0.1');
    assert.equal(replyAddress('192.168.1.77', '0.0.0.0', { lo: box.lo }), '127.0.0.1');
  });

  it('is HOST when it names one address', () => {
    assert.equal(replyAddress('10.0.200.3', '192.168.1.20', box), '192.168.1.20');
    assert.equal(replyAddress('10.0.200.3', 'fd00::20', box), '[fd00::20]');
  });
});

describe('where discovery listens', () => {
  it('on every interface for a wildcard HOST', () => {
    assert.deepEqual(listenAddresses('0.0.0.0', box), ['0.0.0.0']);
    assert.deepEqual(listenAddresses('::', box), ['0.0.0.0']);
  });

  it('on an outward HOST, and on its subnet’s broadcasts (a socket bound to one address hears none)', () => {
    assert.deepEqual(listenAddresses('10.0.0.7', box), ['10.0.0.7', '10.0.255.255', '255.255.255.255']);
    assert.deepEqual(listenAddresses('127.0.0.1', box), ['127.0.0.1']);
  });
});

describe('the reply limit', () => {
  it('allows a few replies per source and a ceiling in all, each second', () => {
    let now = 5_000;
    const limit = new ReplyLimit(2, 3, () => now);
    assert.deepEqual(
      ['a', 'a', 'a', 'b', 'c'].map((source) => limit.allow(source)),
      [true, true, false, true, false],
    );
    now += 1_000;
    assert.equal(limit.allow('a'), true);
    assert.equal(limit.allow('c'), true);
  });
});
