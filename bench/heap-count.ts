// How many objects of some classes a running process holds: its inspector opened by SIGUSR1 (on
// loopback), a heap snapshot taken through it, and the nodes counted by constructor name. Used
// to check that the service's handlers hold one catalogue (one CatalogueSnapshot, one search
// index ...) however many handlers have read it.
//   npx tsx bench/heap-count.ts <pid> [ClassName ...]
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

const [pidArg, ...names] = process.argv.slice(2);
const pid = Number(pidArg);
if (!Number.isInteger(pid)) throw new Error('usage: heap-count.ts <pid> [ClassName ...]');
const wanted = names.length ? names : ['CatalogueSnapshot', 'SearchIndex', 'WatchingService', 'DynamoCatalogStore'];

const inspectorUrl = async (): Promise<string> => {
  process.kill(pid, 'SIGUSR1');
  for (let i = 0; i < 50; i++) {
    try {
      const list = (await (await fetch('http://127.0.0.1:9229/json/list')).json()) as Array<{ webSocketDebuggerUrl: string }>;
      if (list[0]) return list[0].webSocketDebuggerUrl;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('the inspector did not open on 127.0.0.1:9229');
};

const snapshot = async (url: string): Promise<string> => {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const chunks: string[] = [];
  let id = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<void>((resolve) => {
      const mine = ++id;
      const onMessage = (raw: WebSocket.RawData) => {
        // binaryType is 'nodebuffer': every message arrives as one Buffer.
        const message = JSON.parse((raw as Buffer).toString('utf8'));
        if (message.method === 'HeapProfiler.addHeapSnapshotChunk') chunks.push(message.params.chunk);
        if (message.id === mine) {
          ws.off('message', onMessage);
          resolve();
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id: mine, method, params }));
    });
  await send('HeapProfiler.enable');
  await send('HeapProfiler.collectGarbage');
  await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  ws.close();
  return chunks.join('');
};

const main = async () => {
  const heap = JSON.parse(await snapshot(await inspectorUrl())) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = heap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const objectType = heap.snapshot.meta.node_types[0].indexOf('object');
  const counts = new Map<string, number>(wanted.map((n) => [n, 0]));
  for (let i = 0; i < heap.nodes.length; i += width) {
    if (heap.nodes[i + typeAt] !== objectType) continue;
    const name = heap.strings[heap.nodes[i + nameAt]!]!;
    if (counts.has(name)) counts.set(name, counts.get(name)! + 1);
  }
  for (const [name, count] of counts) process.stdout.write(`${name}\t${count}\n`);
};

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
