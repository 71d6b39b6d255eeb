// `npm run invoke -- <function> [event]` runs one function alone with its sample event.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { PROJECT_DIR } from '../../infra/project';
import { tempDir } from '../support/instance';

const invoke = (...args: string[]) =>
  spawnSync('npm', ['run', '--silent', 'invoke', '--', ...args], {
    cwd: PROJECT_DIR,
    encoding: 'utf8',
    // No instance runs on this DATA_DIR: the function uses DYNAMODB_ENDPOINT (the test run's).
    env: { ...process.env, DATA_DIR: tempDir('invoke') },
  });

describe('npm run invoke', () => {
  it('runs a function with its sample event and prints its response', () => {
    const out = invoke('health');
    assert.equal(out.status, 0, out.stderr);
    const response = JSON.parse(out.stdout.slice(out.stdout.indexOf('{')));
    assert.equal(response.statusCode, 200);
    assert.equal(JSON.parse(response.body).data.database, 'ok');
  });

  it('says what is wrong with a missing event file', () => {
    const out = invoke('health', 'events/nothing-here.json');
    assert.equal(out.status, 2);
    assert.match(out.stderr, /No event file at events\/nothing-here\.json/);
  });
});
