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
  /** Closed after a write failed (a full disk, a disk gone); opened again at the next record. */
  private fd: number | undefined;
  private size: number;
  /** Lines lost since the last write that worked: said once, in the log, when writing works again. */
  private dropped = 0;
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
    if (opts.pretty)
      this.pretty = prettyFactory({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  }

  /**
   * One JSON record (already redacted by the writer's pino). A record that cannot be written
   * (ENOSPC, EIO) is dropped and counted, never thrown: the runner that collects the log also
   * holds the front door, and a full disk must not take the service down with it.
   */
  record(line: string) {
    const data = line.endsWith('\n') ? line : `${line}\n`;
    if (this.pretty) process.stdout.write(this.pretty(data));
    try {
      if (this.size + data.length > this.maxBytes) this.rotate();
      this.fd ??= this.reopen();
      if (this.dropped > 0) this.write(droppedRecord(this.dropped));
      this.dropped = 0;
      this.write(data);
    } catch {
      this.dropped++;
      this.closeQuietly();
    }
  }

  /** Lines dropped since the last write that worked. */
  get droppedLines() {
    return this.dropped;
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

  private write(data: string) {
    this.size += writeSync(this.fd!, data);
  }

  private reopen(): number {
    const fd = openSync(this.file, 'a');
    this.size = statSync(this.file).size;
    return fd;
  }

  private closeQuietly() {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      /* already unusable */
    }
    this.fd = undefined;
  }

  private rotate() {
    this.closeQuietly();
    rmSync(join(this.opts.dir, `service.${this.keep}.log`), { force: true });
    for (let n = this.keep - 1; n >= 1; n--) {
      try {
        renameSync(join(this.opts.dir, `service.${n}.log`), join(this.opts.dir, `service.${n + 1}.log`));
      } catch {
        /* that generation does not exist yet */
      }
    }
    renameSync(this.file, join(this.opts.dir, 'service.1.log'));
    this.fd = this.reopen();
  }

  close() {
    this.closeQuietly();
  }
}

/** The record that says how many lines a failing disk cost, in the log's own shape. */
const droppedRecord = (lines: number) =>
  `${JSON.stringify({ level: 'warn', time: new Date().toISOString(), source: 'runner', lines, msg: 'log lines dropped: the log could not be written' })}\n`;
