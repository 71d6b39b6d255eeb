// The runner's state file (DATA_DIR/runner.json) is replaced whole or not at all.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { describe, it } from 'node:test';
import { initialState, pendingStateFile, readState, saveState, stateFile } from '../../../infra/runner/state';
import { tempDir } from '../../support/instance';

const PORTS = { dynamodb: 4001, http: 4002, websocket: 4003, lambda: 4004 };

describe('the runner state file', () => {
  it('is replaced whole, leaving no temporary file', () => {
    const dir = tempDir('state');
    const state = initialState(3000, PORTS, undefined);
    assert.equal(saveState(dir, { ...state, processes: { dynamodb: 11 } }), true);
    assert.equal(saveState(dir, { ...state, processes: { dynamodb: 11, offline: 12 } }), true);
    assert.deepEqual(readState(dir), { ...state, processes: { dynamodb: 11, offline: 12 } });
    assert.equal(existsSync(pendingStateFile(dir)), false);
  });

  it('keeps the previous file whole, and throws nothing, when the disk refuses the new one', () => {
    // Prepare: a saved state, then a disk that refuses every write (/dev/full answers ENOSPC).
    const dir = tempDir('state');
    const state = initialState(3000, PORTS, undefined);
    saveState(dir, state);
    const before = readFileSync(stateFile(dir), 'utf8');
    symlinkSync('/dev/full', pendingStateFile(dir));
    // Act
    const saved = saveState(dir, { ...state, processes: { offline: 12 } });
    // Assess
    assert.equal(saved, false);
    assert.equal(readFileSync(stateFile(dir), 'utf8'), before);
    assert.equal(existsSync(pendingStateFile(dir)), false);
  });
});
