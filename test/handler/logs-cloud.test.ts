// GET /api/v1/logs as a function in the cloud reads the stack's log group (LOG_GROUP set, no
// LOG_DIR) through CloudWatch Logs: here our fake of it (test/support/fake-cloudwatch-logs.ts).
// The handler runs in a process of its own, as a Lambda does, on the test run's database (its
// middleware counts requests in the table, as in the cloud); the reader itself is
// test/unit/logs/cloudwatch-reader.test.ts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PROJECT_DIR } from '../../infra/project';
import { FakeCloudWatchLogs, lambdaLines, logRecord as record, type FakeCloudWatchLogsServer } from '../support/fake-cloudwatch-logs';

const run = promisify(execFile);
const fake = new FakeCloudWatchLogs();
let server: FakeCloudWatchLogsServer;
const newGroup = () => `/aws/lambda/media-library-handler-test-${Date.now()}`;
const msgs = (records: { msg: string }[]) => records.map((r) => r.msg);

before(async () => {
  server = await fake.start();
});
after(() => server.close());

describe('the logs function in the cloud', () => {
  it('is what GET /api/v1/logs reads in the cloud (LOG_GROUP set, no LOG_DIR)', async () => {
    const group = newGroup();
    fake.append(group, 's', [
      ...lambdaLines('h'),
      record(Date.now() - 2_000, 'info', 'from a function'),
      record(Date.now() - 1_000, 'debug', 'too chatty'),
    ]);
    const script = `
      const { handler } = await import(${JSON.stringify(join(PROJECT_DIR, 'functions/logs/list.ts'))});
      const { sampleEvent, lambdaContext } = await import(${JSON.stringify(join(PROJECT_DIR, 'test/support/lambda.ts'))});
      process.stdout.write('RESULT ' + JSON.stringify(await handler(sampleEvent('listLogs'), lambdaContext('listLogs'))) + '\\n');`;
    const { LOG_DIR: _files, ...env } = process.env;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_DIR,
      env: { ...env, LOG_GROUP: group, CLOUDWATCH_LOGS_ENDPOINT: server.url, AWS_ACCESS_KEY_ID: '', LOG_LEVEL: 'warn' },
    });
    const result = JSON.parse(
      stdout
        .split('\n')
        .find((l) => l.startsWith('RESULT '))!
        .slice('RESULT '.length),
    );
    assert.equal(result.statusCode, 200, result.body);
    assert.deepEqual(msgs(JSON.parse(result.body).data), ['from a function'], 'the sample asks for info and up');
    assert.equal(fake.calls[0]!.logGroupName, group);
  });
});
