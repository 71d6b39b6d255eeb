import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allOperations } from '../../../lib/api/operations';
import { matchRoute } from '../../../lib/api/routes';

describe('matchRoute', () => {
  it('finds an operation by method and templated path', () => {
    const m = matchRoute('GET', '/api/v1/movies/abc123');
    assert.equal(m.kind === 'found' && m.op.id, 'getMovie');
  });

  it('prefers a literal segment over a parameter', () => {
    const m = matchRoute('GET', '/api/v1/library/stats');
    assert.equal(m.kind === 'found' && m.op.id, 'libraryStats');
  });

  it('lists the allowed methods for a known path with the wrong method', () => {
    assert.deepEqual(matchRoute('DELETE', '/api/v1/settings'), { kind: 'wrong-method', allowed: ['GET', 'PATCH'] });
  });

  it('knows nothing outside the contract', () => {
    for (const path of [
      '/',
      '/api',
      '/api/v1',
      '/api/v1/',
      '/api/v2/health',
      '/api/v1/health/',
      '/2015-03-31/functions/health/invocations',
    ]) {
      assert.deepEqual(matchRoute('GET', path), { kind: 'none' }, path);
    }
  });

  it('has one operation per method and path, each with a unique id', () => {
    const keys = allOperations.map((o) => `${o.method} ${o.path}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(new Set(allOperations.map((o) => o.id)).size, allOperations.length);
  });
});
