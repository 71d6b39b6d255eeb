// Internal ports come from below the ephemeral range, where no outgoing connection can take
// one between the probe and the child's bind; a port already taken is never handed out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { freePorts } from '../../../infra/runner/ports';

const ephemeralLow = () => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 49_152;
  }
};

describe('freePorts', () => {
  it('draws distinct ports below the range outgoing connections use', async () => {
    const ports = await freePorts(20);
    assert.equal(new Set(ports).size, 20);
    for (const port of ports) assert.ok(port >= 20_000 && port < ephemeralLow(), `port ${port}`);
  });

  it('hands out ports that can be bound at once', async () => {
    for (const port of await freePorts(5)) {
      const server = createServer().listen(port, '127.0.0.1');
      await once(server, 'listening');
      server.close();
    }
  });
});
