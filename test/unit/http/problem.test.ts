import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invalidRequest, rateLimited } from '../../../lib/errors';
import { problemHeaders, toProblem } from '../../../lib/http/problem';

describe('toProblem', () => {
  it('keeps the detail and fields of a typed error', () => {
    const err = invalidRequest([{ field: 'query.limit', message: 'must be <= 100' }]);
    assert.deepEqual(toProblem(err, '/api/v1/movies', 'req-1'), {
      type: '/problems/invalid-request',
      title: 'Invalid request',
      status: 400,
      detail: 'query.limit: must be <= 100',
      instance: '/api/v1/movies',
      requestId: 'req-1',
      errors: [{ field: 'query.limit', message: 'must be <= 100' }],
    });
  });

  it('turns anything untyped into a bare 500 that reveals nothing', () => {
    const secret = new Error('connect ECONNREFUSED 127.0.0.1:8000 at /srv/app/lib/db.ts:12');
    const body = toProblem(secret, '/api/v1/settings', 'req-2');
    assert.deepEqual(body, {
      type: '/problems/internal',
      title: 'Internal server error',
      status: 500,
      detail: 'An unexpected error occurred',
      instance: '/api/v1/settings',
      requestId: 'req-2',
    });
    assert.doesNotMatch(JSON.stringify(body), /ECONNREFUSED|\/srv\//);
  });

  it('adds Retry-After to a rate-limit problem', () => {
    assert.equal(problemHeaders(rateLimited(42))['Retry-After'], '42');
  });
});
