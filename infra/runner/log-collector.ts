// The local stand-in for CloudWatch: handlers and the runner write JSON lines to stdout,
// the runner collects them into DATA_DIR/logs/service.log, rotated by size
// (service.1.log is the previous file, and so on, oldest deleted). In development the
// records are also pretty-printed on the console; in production the console stays quiet.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { prettyFactory } from 'pino-pretty';

export interface CollectorOptions {
  dir: string;
  maxBytes?: number;
  keep?: number;
  pretty: boolean;
}

export class LogCollector {
  private fd: number;
  private size: number;
  private readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly pretty?: (line: string) => string;

  constructor(private readonly opts: CollectorOptions) {
    mkdirSync(opts.dir, { recursive: true });
    this.file = join(opts.dir, 'service.log');
    this.maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
    this.keep = opts.keep ?? 5;
    this.fd = openSync(this.file, 'a');
    this.size = statSync(this.file).size;
    if (opts.pretty) this.pretty = prettyFactory({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  }

  /** One JSON record (already redacted by the writer's pino). */
  record(line: string) {
    const data = line.endsWith('\n') ? line : `${line}\n`;
    if (this.size + data.length > this.maxBytes) this.rotate();
    this.size += writeSync(this.fd, data);
    if (this.pretty) process.stdout.write(this.pretty(data));
  }

  /**
   * Collects a child's output: JSON records are kept. Other lines are the child's own chatter
   * (offline's route table lists internal ports nobody should use): only what it writes to
   * stderr, its warnings and errors, shows, and only in development.
   */
  attach(stream: Readable | null, source: string, kind: 'stdout' | 'stderr') {
    if (!stream) return;
    createInterface({ input: stream }).on('line', (line) => {
      if (line.startsWith('{') && line.includes('"level"')) this.record(line);
      else if (this.opts.pretty && kind === 'stderr' && line.trim()) process.stderr.write(`[${source}] ${line}\n`);
    });
  }

  private rotate() {
    closeSync(this.fd);
    rmSync(join(this.opts.dir, `service.${this.keep}.log`), { force: true });
    for (let n = this.keep - 1; n >= 1; n--) {
      try {
        renameSync(join(this.opts.dir, `service.${n}.log`), join(this.opts.dir, `service.${n + 1}.log`));
      } catch {
        /* that generation does not exist yet */
      }
    }
    renameSync(this.file, join(this.opts.dir, 'service.1.log'));
    this.fd = openSync(this.file, 'a');
    this.size = 0;
  }

  close() {
    closeSync(this.fd);
  }
}
