// Internal ports are taken from the OS (bind to port 0 on loopback), so they can never
// collide with PORT or with a second instance on the same machine.
import { createServer } from 'node:net';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Distinct free ports (the OS could hand the same one out twice once it is released). */
export const freePorts = async (count: number) => {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
};
