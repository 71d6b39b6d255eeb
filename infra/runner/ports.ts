// Internal ports are probed free on loopback, so they never collide with PORT or with a second
// instance on the same machine. They are drawn from below the OS's ephemeral range: a port
// handed out by bind(0) comes from that range, and so does the local port of every outgoing
// connection, so on a busy box a connection could take it in the seconds between the probe
// and the child's own bind (serverless-offline then fails with EADDRINUSE).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port drawn from; below it sit the well-known and commonly configured services. */
const LOWEST = 20_000;

/** The range the OS picks outgoing connections' ports from (IANA's dynamic range where unknown). */
const ephemeralRange = (): [number, number] => {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low! <= high!) return [low!, high!];
  } catch {
    /* not Linux */
  }
  return [49_152, 65_535];
};

/** Binds `port` on loopback and lets it go; resolves the port bound (the OS's choice for 0), or undefined when taken. */
const probe = (port: number) =>
  new Promise<number | undefined>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(undefined) : reject(err),
    );
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });

export const freePort = async (): Promise<number> => {
  const [low] = ephemeralRange();
  const span = low - LOWEST;
  // A box whose ephemeral range starts low has no quiet range: the OS's choice is all there is.
  for (let attempt = 0; span >= 1_000 && attempt < 50; attempt++) {
    const port = await probe(LOWEST + Math.floor(Math.random() * span));
    if (port !== undefined) return port;
  }
  const port = await probe(0);
  if (port === undefined) throw new Error('no free port on loopback');
  return port;
};

/** Distinct free ports (the same one could be drawn twice once it is released). */
export const freePorts = async (count: number) => {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
};
