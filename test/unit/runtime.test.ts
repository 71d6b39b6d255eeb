// What the runner tells the handlers (lib/runtime.ts): written by one side, read by the other,
// with the defaults a function has where no runner stands in front.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { readRuntime, writeRuntime, type Runtime } from '../../lib/runtime';

describe('runtime', () => {
  it('reads back every value the runner writes', () => {
    // Prepare
    const told: Runtime = {
      hosting: 'shared-process',
      mode: 'development',
      dataDir: '/srv/media-data',
      logDir: '/srv/media-data/logs',
      dynamodbEndpoint: 'http://127.0.0.1:8001',
      databaseDir: '/srv/media-data/db',
      tableName: 'media-test',
      wsManagementEndpoint: 'http://127.0.0.1:8002',
      lambdaEndpoint: 'http://127.0.0.1:8003',
      streamDelivery: 'front-door',
      rateLimitAt: 'edge',
      serviceStartedAt: 1_700_000_000_000,
    };
    const issues: string[] = [];

    // Act
    const read = readRuntime(writeRuntime(told), issues);

    // Assess
    assert.deepEqual(read, told);
    assert.deepEqual(issues, []);
  });

  it('writes only the values given, under their variables', () => {
    assert.deepEqual(writeRuntime({ dynamodbEndpoint: 'http://127.0.0.1:8001', streamDelivery: 'front-door', serviceStartedAt: 5 }), {
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8001',
      STREAM_DELIVERY: 'front-door',
      SERVICE_STARTED_AT: '5',
    });
  });

  it('gives a function with no runner in front the defaults', () => {
    const issues: string[] = [];
    assert.deepEqual(readRuntime({ STREAM_DELIVERY: '  ', LOG_DIR: '' }, issues), {
      hosting: 'lambda',
      mode: 'production',
      dataDir: resolve('data'),
      logDir: undefined,
      dynamodbEndpoint: undefined,
      databaseDir: undefined,
      tableName: 'media',
      wsManagementEndpoint: undefined,
      lambdaEndpoint: undefined,
      streamDelivery: 'inline',
      rateLimitAt: 'table',
      serviceStartedAt: undefined,
    });
    assert.deepEqual(issues, []);
  });

  it('names each malformed variable and falls back to its default', () => {
    const issues: string[] = [];
    const read = readRuntime(
      {
        STREAM_DELIVERY: 'carrier-pigeon',
        LAMBDA_ENDPOINT: 'offline',
        SERVICE_STARTED_AT: 'yesterday',
        DYNAMODB_ENDPOINT: 'http://127.0.0.1:8001/',
      },
      issues,
    );
    assert.equal(read.streamDelivery, 'inline');
    assert.equal(read.lambdaEndpoint, undefined);
    assert.equal(read.serviceStartedAt, undefined);
    assert.equal(read.dynamodbEndpoint, 'http://127.0.0.1:8001', 'a URL loses its trailing slash');
    assert.deepEqual(issues, [
      'LAMBDA_ENDPOINT must be an absolute URL (got "offline")',
      'STREAM_DELIVERY must be one of inline, front-door (got "carrier-pigeon")',
      'SERVICE_STARTED_AT must be a time in milliseconds since the epoch (got "yesterday")',
    ]);
  });
});
