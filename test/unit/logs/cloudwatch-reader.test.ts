// The CloudWatch Logs reader through the real SDK client against our fake CloudWatch Logs
// (test/support/fake-cloudwatch-logs.ts, the service's JSON 1.1 protocol over HTTP). The proof
// that it answers as the file reader does: the same lines fed to both give the same records.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { PROJECT_DIR } from '../../../infra/project';
import { LOCAL_CREDENTIALS } from '../../../lib/config';
import { AppError } from '../../../lib/errors';
import { toProblem } from '../../../lib/http/problem';
import { cloudWatchLogReader, cloudWatchLogsClient, levelPattern, type CloudWatchLogReaderOptions } from '../../../lib/logs/cloudwatch';
import { LEVELS, readLogs, type LogQuery } from '../../../lib/logs/reader';
import { FakeCloudWatchLogs, lambdaLines, logRecord as record, type FakeCloudWatchLogsServer } from '../../support/fake-cloudwatch-logs';
import { tempDir } from '../../support/instance';

const run = promisify(execFile);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);

const fake = new FakeCloudWatchLogs();
let server: FakeCloudWatchLogsServer;
let groups = 0;
/** A group of its own for each test: the fake keeps what was appended. */
const newGroup = () => `/aws/lambda/media-library-test-${++groups}`;

const readerFor = (logGroupName: string, options: Partial<CloudWatchLogReaderOptions> = {}) =>
  cloudWatchLogReader({
    client: cloudWatchLogsClient({ region: 'us-east-1', endpoint: server.url, localCredentials: LOCAL_CREDENTIALS }),
    logGroupName,
    now: () => NOW,
    ...options,
  });

const msgs = (records: { msg: string }[]) => records.map((r) => r.msg);

describe('CloudWatch Logs reader', () => {
  before(async () => {
    server = await fake.start();
  });
  after(() => server.close());
  beforeEach(() => fake.reset());

  it('answers newest first across the streams of the group, skipping what Lambda writes itself', async () => {
    const group = newGroup();
    // Two warm instances of functions, each its own stream, writing in turn.
    fake.append(group, '2026/06/15/[$LATEST]aaa', [
      record(NOW - 50_000, 'info', 'a1'),
      record(NOW - 30_000, 'info', 'a2'),
      record(NOW - 10_000, 'info', 'a3'),
    ]);
    fake.append(
      group,
      '2026/06/15/[$LATEST]bbb',
      [...lambdaLines('b'), record(NOW - 40_000, 'info', 'b1'), record(NOW - 20_000, 'info', 'b2')],
      (line) => (line.startsWith('{') ? Date.parse(JSON.parse(line).time) : NOW - 45_000),
    );
    const records = await readerFor(group).read({ limit: 100 });
    assert.deepEqual(msgs(records), ['a3', 'b2', 'a2', 'b1', 'a1']);
    assert.equal(fake.calls[0]!.filterPattern, undefined, 'every level wanted: no pattern, the non-JSON lines are skipped here');
  });

  it("orders by the records' own times when two functions' lines reached CloudWatch a few ms apart the other way", async () => {
    const group = newGroup();
    // CloudWatch took c1 2 ms after c2, though c1 was written 2 ms before it.
    fake.append(group, 's1', [record(NOW - 1_000, 'info', 'c1')], () => NOW - 998);
    fake.append(group, 's2', [record(NOW - 998, 'info', 'c2')], () => NOW - 1_000);
    assert.deepEqual(msgs(await readerFor(group).read({ limit: 100 })), ['c2', 'c1']);
  });

  it('filters, orders and shapes records exactly as the file reader does on the same lines', async () => {
    const group = newGroup();
    const dir = tempDir('cw-logs');
    // Times from seconds to 20 days back, so reads cross windows and the 14-day bound.
    // Two fall exactly on the boundaries of the first windows (15 minutes, then 1 h 15 min back).
    const ages = [
      20 * DAY,
      13 * DAY,
      6 * DAY,
      2 * DAY,
      30 * HOUR,
      5 * HOUR,
      3 * HOUR,
      75 * MINUTE,
      70 * MINUTE,
      40 * MINUTE,
      20 * MINUTE,
      15 * MINUTE,
      14 * MINUTE,
      9 * MINUTE,
      3 * MINUTE,
      59_000,
      2_000,
    ];
    const levels = ['info', 'debug', 'warn', 'error', 'trace', 'fatal'] as const;
    const lines: { at: number; line: string }[] = [];
    ages.forEach((age, i) => {
      const at = NOW - age;
      const level = levels[i % levels.length]!;
      lines.push({ at, line: lambdaLines(`req-${i}`)[0]! });
      lines.push({
        at,
        line: record(at, level, i % 4 === 0 ? `Scan COMPLETE ${i}` : `event ${i}`, { n: i, nested: { path: `/media/${i}` } }),
      });
      // Two records of one millisecond: the later line comes first, as in the file.
      if (i % 5 === 3) lines.push({ at, line: record(at, level, `same millisecond ${i}`) });
      lines.push({ at: at + 1, line: i === 5 ? '{"level":"error", torn' : lambdaLines(`req-${i}`)[2]! });
    });
    writeFileSync(join(dir, 'service.log'), lines.map((l) => l.line).join('\n') + '\n');
    // The same lines as events, dealt to three streams.
    lines.forEach((l, i) => fake.append(group, `stream-${i % 3}`, [l.line], l.at));

    const reader = readerFor(group);
    const queries: LogQuery[] = [
      { limit: 1000 },
      { limit: 1 },
      { limit: 4 },
      { level: 'trace', limit: 1000 },
      { level: 'warn', limit: 1000 },
      { level: 'error', limit: 2 },
      { level: 'fatal', limit: 1000 },
      { q: 'scan complete', limit: 1000 },
      { q: 'MEDIA/1', limit: 1000 },
      { q: 'nothing like it', limit: 10 },
      { since: new Date(NOW - 4 * HOUR).toISOString(), limit: 1000 },
      { since: new Date(NOW - 10 * MINUTE).toISOString(), level: 'info', limit: 1000 },
      { since: new Date(NOW - 3 * DAY).toISOString(), q: 'event', level: 'debug', limit: 3 },
    ];
    const answered: number[] = [];
    for (const query of queries) {
      const fromFiles = await readLogs(dir, query);
      // The file keeps everything; CloudWatch is read 14 days back at most.
      const recent = fromFiles.filter((r) => Date.parse(r.time) >= NOW - 14 * DAY);
      assert.deepEqual(await reader.read(query), recent, JSON.stringify(query));
      answered.push(recent.length);
    }
    assert.deepEqual(answered, [19, 1, 4, 19, 10, 2, 2, 4, 8, 0, 13, 2, 3], 'each query selects what it was written for');
    const all = await reader.read({ limit: 1000 });
    assert.ok(all.every((r) => !('pid' in r) && !('hostname' in r) && typeof r.level === 'string'));
  });

  it('has CloudWatch filter levels with a JSON pattern on the label lib/log.ts writes', async () => {
    assert.equal(levelPattern(0), undefined);
    assert.equal(levelPattern(LEVELS.trace), undefined);
    assert.equal(levelPattern(LEVELS.error), '{ ($.level = "error") || ($.level = "fatal") }');
    const group = newGroup();
    fake.append(group, 's', [
      ...lambdaLines('x'),
      record(NOW - 1000, 'warn', 'careful'),
      record(NOW - 900, 'error', 'broken'),
      record(NOW - 800, 'info', 'fine'),
    ]);
    assert.deepEqual(msgs(await readerFor(group).read({ level: 'warn', limit: 10 })), ['broken', 'careful']);
    assert.equal(fake.calls[0]!.filterPattern, '{ ($.level = "warn") || ($.level = "error") || ($.level = "fatal") }');
    assert.equal(fake.calls[0]!.events, 2, 'the service, not the reader, left out the info record and the START/END/REPORT lines');
    // The fake knows that pattern form only, so the reader cannot come to rely on one it would get wrong.
    const client = cloudWatchLogsClient({ region: 'us-east-1', endpoint: server.url, localCredentials: LOCAL_CREDENTIALS });
    await assert.rejects(client.send(new FilterLogEventsCommand({ logGroupName: group, filterPattern: 'ERROR' })), {
      name: 'InvalidParameterException',
    });
  });

  it('pages through each window and walks windows back over days, each 4x longer, without overlap', async () => {
    const group = newGroup();
    const ages = Array.from({ length: 34 }, (_, i) => Math.round(2 * MINUTE * 1.3 ** i)); // 2 minutes to 8 days
    for (const age of ages) fake.append(group, `s-${age % 2}`, [record(NOW - age, 'info', `age ${age}`)]);
    fake.pageSize = 3;
    const records = await readerFor(group).read({ limit: 1000 });
    assert.deepEqual(
      msgs(records),
      ages.map((age) => `age ${age}`),
      'all of them, newest first',
    );

    const windows = [...new Map(fake.calls.map((c) => [c.startTime, c])).values()];
    assert.equal(windows[0]!.endTime, undefined, 'the newest window is open at its end');
    assert.equal(windows[0]!.startTime, NOW - 15 * MINUTE);
    windows.slice(1).forEach((w, i) => {
      assert.equal(w.endTime, windows[i]!.startTime, 'each window ends where the newer one starts');
      const length = w.endTime! - w.startTime!;
      assert.ok(
        length === 15 * MINUTE * 4 ** (i + 1) || w.startTime === NOW - 14 * DAY,
        `window ${i + 1} is 4x the one before (or reaches the bound)`,
      );
    });
    assert.equal(windows.at(-1)!.startTime, NOW - 14 * DAY);
    assert.ok(
      fake.calls.some((c) => c.nextToken),
      'a window took several pages',
    );
    assert.ok(fake.calls.every((c) => c.status === 200));
  });

  it('stops once it has the limit: the newest window alone when it holds enough', async () => {
    const group = newGroup();
    fake.append(
      group,
      's',
      Array.from({ length: 120 }, (_, i) => record(NOW - (120 - i) * MINUTE, 'info', `minute ${120 - i}`)),
    );
    const records = await readerFor(group).read({ limit: 5 });
    assert.deepEqual(msgs(records), ['minute 1', 'minute 2', 'minute 3', 'minute 4', 'minute 5']);
    assert.equal(fake.calls.length, 1);
  });

  it('reads no further back than since, 14 days, or the retention', async () => {
    const group = newGroup();
    fake.append(group, 's', [
      record(NOW - 20 * DAY, 'info', '20 days'),
      record(NOW - 3 * DAY, 'info', '3 days'),
      record(NOW - HOUR, 'info', '1 hour'),
    ]);
    assert.deepEqual(msgs(await readerFor(group).read({ limit: 10 })), ['1 hour', '3 days']);
    assert.ok(fake.calls.every((c) => c.startTime! >= NOW - 14 * DAY));

    fake.reset();
    assert.deepEqual(msgs(await readerFor(group, { retentionDays: 1 }).read({ limit: 10 })), ['1 hour']);
    assert.equal(Math.min(...fake.calls.map((c) => c.startTime!)), NOW - DAY);

    fake.reset();
    const since = new Date(NOW - 2 * HOUR).toISOString();
    assert.deepEqual(msgs(await readerFor(group).read({ since, limit: 10 })), ['1 hour']);
    assert.equal(Math.min(...fake.calls.map((c) => c.startTime!)), NOW - 2 * HOUR);
    assert.equal(fake.calls.length, 3, '15 minutes, the hour before, then the 45 minutes left down to since');
  });

  it('makes at most its cap of calls, then answers what the windows it finished found', async () => {
    const group = newGroup();
    // Windows back from now: 15 min, 1 h, 4 h, 16 h, 64 h, then down to 14 days, which holds the old ones.
    fake.append(
      group,
      's',
      Array.from({ length: 50 }, (_, i) => record(NOW - 4 * DAY + i * 1000, 'info', `old ${i}`)),
    );
    fake.append(group, 's', [record(NOW - MINUTE, 'warn', 'recent')]);
    fake.pageSize = 1;
    assert.deepEqual(await readerFor(group).read({ q: 'never there', limit: 10 }), []);
    assert.equal(fake.calls.length, 40, 'the default cap');

    fake.reset();
    fake.pageSize = 1;
    // The last window was cut after its 3 oldest records: showing them would hide the 47 newer ones.
    assert.deepEqual(msgs(await readerFor(group, { maxCalls: 8 }).read({ limit: 100 })), ['recent']);
    assert.equal(fake.calls.length, 8);

    fake.reset();
    fake.pageSize = 1;
    const all = await readerFor(group, { maxCalls: 100 }).read({ limit: 100 });
    assert.equal(all.length, 51, 'with calls enough, all of them');

    fake.reset();
    assert.deepEqual(await readerFor(group, { budgetMs: 0 }).read({ limit: 10 }), [], 'no call once the time is used');
    assert.equal(fake.calls.length, 0);
  });

  it('answers an empty list while the group does not exist (no function has logged yet)', async () => {
    assert.deepEqual(await readerFor('/aws/lambda/never-created').read({ limit: 10 }), []);
    assert.equal(fake.calls[0]!.status, 400);
  });

  it('turns any other failure of CloudWatch Logs into the 503 dependency-unavailable problem', async () => {
    const group = newGroup();
    fake.append(group, 's', [record(NOW - 1000, 'info', 'x')]);
    for (const failure of ['unavailable', 'throttling', 'access-denied'] as const) {
      fake.reset().failWith(failure);
      const err = await readerFor(group)
        .read({ limit: 10 })
        .then(
          () => assert.fail('the read should fail'),
          (e: unknown) => e,
        );
      assert.ok(err instanceof AppError, failure);
      const problem = toProblem(err, '/api/v1/logs', 'req-1');
      assert.equal(problem.status, 503);
      assert.equal(problem.type, '/problems/dependency-unavailable');
      assert.match(problem.detail, /log store \(CloudWatch Logs\) is unavailable/);
      assert.ok(fake.calls.length <= 2, 'one retry at most');
    }
    const unreachable = cloudWatchLogReader({
      client: cloudWatchLogsClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', localCredentials: LOCAL_CREDENTIALS }),
      logGroupName: group,
    });
    await assert.rejects(unreachable.read({ limit: 10 }), (err: unknown) => err instanceof AppError && err.status === 503);
  });

  it('keeps a secret logged through rootLogger redacted', async () => {
    const group = newGroup();
    // A function's stdout, as Lambda captures it.
    const script = `
      const { rootLogger } = await import(${JSON.stringify(join(PROJECT_DIR, 'lib/log.ts'))});
      rootLogger.warn({ apiKey: 'sk-live-123', provider: { tmdbApiKey: 'tm-456' }, req: { headers: { authorization: 'Bearer abc' } } }, 'provider refused the key');`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_DIR,
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    fake.append(group, 's', [...lambdaLines('k'), ...stdout.trim().split('\n')]);
    const [found] = (await readerFor(group, { now: Date.now }).read({ q: 'provider refused', limit: 10 })) as unknown as Record<
      string,
      any
    >[];
    assert.equal(found!.apiKey, '[redacted]');
    assert.equal(found!.provider.tmdbApiKey, '[redacted]');
    assert.equal(found!.req.headers.authorization, '[redacted]');
    assert.doesNotMatch(JSON.stringify(found), /sk-live|tm-456|Bearer abc/);
  });
});
