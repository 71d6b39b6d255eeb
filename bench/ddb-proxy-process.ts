// The counting proxy of bench/ddb-calls.ts in a process of its own, so that the calls it
// forwards do not wait behind the bench's own clients (the household part's 44 of them share
// the bench process's event loop). Started by `proxyProcess` below (`fork`, with tsx); its
// upstream is the DynamoDB Local of the instance whose DATA_DIR it is given, read from that
// instance's runner.json at the first call. Over its IPC channel: `take` answers the calls
// counted since the last take. It stops when the bench process goes.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { PROJECT_DIR } from '../infra/project';
import { readState } from '../infra/runner/state';
import { countingProxy, type DdbCall } from './ddb-calls';

/** A call as sent over IPC: label, items, when it reached the proxy (ms since the epoch), ms. */
type Wire = [string, number, number, number];

interface Take {
  take: number;
}

const child = async (dataDir: string) => {
  const proxy = await countingProxy(() => readState(dataDir)?.dynamodbEndpoint);
  process.on('message', (message: Take) => {
    const calls = proxy.calls.splice(0);
    process.send!({ take: message.take, calls: calls.map((c): Wire => [c.label, c.items, performance.timeOrigin + c.startedAt, c.ms]) });
  });
  process.once('disconnect', () => void proxy.close().finally(() => process.exit(0)));
  process.send!({ url: proxy.url });
};

export interface ProxyProcess {
  url: string;
  pid: number;
  /** The calls counted since the last take, their startedAt on this process's performance.now(). */
  take(): Promise<DdbCall[]>;
  close(): Promise<void>;
}

/** Starts the proxy process in front of the database of the instance that will run on `dataDir`. */
export const proxyProcess = async (dataDir: string): Promise<ProxyProcess> => {
  const proc = fork(join(PROJECT_DIR, 'bench/ddb-proxy-process.ts'), ['--child', dataDir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(proc, 'exit');
  const [first] = (await Promise.race([once(proc, 'message'), exited.then(() => { throw new Error('the counting proxy exited while starting'); })])) as [{ url: string }];
  let next = 0;
  const waiting = new Map<number, (calls: DdbCall[]) => void>();
  proc.on('message', (m: { take?: number; calls?: Wire[] }) => {
    if (m.take === undefined) return;
    waiting.get(m.take)?.((m.calls ?? []).map(([label, items, at, ms]) => ({ label, items, startedAt: at - performance.timeOrigin, ms })));
    waiting.delete(m.take);
  });
  return {
    url: first.url,
    pid: proc.pid!,
    take: () =>
      new Promise<DdbCall[]>((resolve, reject) => {
        const id = next++;
        waiting.set(id, resolve);
        if (!proc.send({ take: id } satisfies Take)) reject(new Error('the counting proxy is gone'));
      }),
    close: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.disconnect();
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
};

if (process.argv[2] === '--child' && process.argv[3]) void child(process.argv[3]);
