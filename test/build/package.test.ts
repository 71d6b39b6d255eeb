// `npm run package` builds a deployable artifact without AWS credentials: both APIs, the
// table from infra/table.json, one bundled function per route, on the cloud runtime.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { allOperations } from '../../lib/api/operations';
import { TABLE_DEFINITION } from '../../lib/db/table';
import { PROJECT_DIR } from '../../infra/service';
import { tempDir } from '../support/instance';

type Resource = { Type: string; Properties: Record<string, any> };
let resources: Record<string, Resource>;
let out: string;

before(() => {
  out = tempDir('package');
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', SLS_TELEMETRY_DISABLED: '1' };
  delete env.DYNAMODB_ENDPOINT;
  execFileSync(process.execPath, [join(PROJECT_DIR, 'node_modules/serverless/bin/serverless.js'), 'package', '--stage', 'prod', '--package', out], {
    cwd: PROJECT_DIR,
    env,
    stdio: 'pipe',
  });
  resources = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8')).Resources;
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe('npm run package', () => {
  it('has an HTTP API and a WebSocket API', () => {
    const protocols = ofType('AWS::ApiGatewayV2::Api').map(([, r]) => r.Properties.ProtocolType).sort();
    assert.deepEqual(protocols, ['HTTP', 'WEBSOCKET']);
  });

  it('routes every built operation, the catch-all and the three WebSocket routes', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey).sort();
    const http = allOperations.filter((o) => o.implemented).map((o) => `${o.method} ${o.path}`);
    const expected = [...http, '$default', '$connect', '$disconnect', '$default'].sort();
    assert.deepEqual(routes, expected);
  });

  it('creates the table from infra/table.json', () => {
    const tables = ofType('AWS::DynamoDB::Table');
    assert.equal(tables.length, 1);
    assert.deepEqual(tables[0]![1].Properties, TABLE_DEFINITION);
  });

  it('bundles each function for the cloud runtime, with its table and WebSocket endpoint', () => {
    const functions = ofType('AWS::Lambda::Function');
    // One per built operation, the catch-all, three WebSocket routes, the scan worker, recovery and the library upkeep.
    assert.equal(functions.length, allOperations.filter((o) => o.implemented).length + 7);
    for (const [name, fn] of functions) {
      assert.equal(fn.Properties.Runtime, 'nodejs22.x', name);
      assert.deepEqual(fn.Properties.Environment.Variables.TABLE_NAME, { Ref: 'MediaTable' });
      assert.ok(fn.Properties.Environment.Variables.WS_MANAGEMENT_ENDPOINT['Fn::Join'], name);
    }
    for (const zip of ['health', 'getSettings', 'wsMessage', 'docsAsset', 'scanWorker']) assert.ok(existsSync(join(out, `${zip}.zip`)), zip);
  });

  it('runs the library upkeep (scheduled rescans) on an EventBridge schedule', () => {
    const rules = ofType('AWS::Events::Rule');
    const rule = rules.find(([, r]) => JSON.stringify(r.Properties.Targets).includes('LibraryUpkeep'));
    assert.ok(rule, `a rule targets the upkeep function: ${JSON.stringify(rules.map(([n]) => n))}`);
    assert.equal(rule[1].Properties.ScheduleExpression, 'rate(15 minutes)');
  });

  it('gives the scan worker Lambda\'s longest timeout, and its name to the functions that start it', () => {
    const [, worker] = ofType('AWS::Lambda::Function').find(([name]) => name === 'ScanWorkerLambdaFunction')!;
    assert.equal(worker.Properties.Timeout, 900);
    const [, start] = ofType('AWS::Lambda::Function').find(([name]) => name === 'StartScanLambdaFunction')!;
    assert.equal(start.Properties.Environment.Variables.SCAN_WORKER_FUNCTION, 'media-library-prod-scanWorker');
  });

  it('lets the functions post to WebSocket connections and use the table', () => {
    const role = ofType('AWS::IAM::Role')[0]![1];
    const actions = JSON.stringify(role.Properties.Policies);
    assert.match(actions, /execute-api:ManageConnections/);
    assert.match(actions, /dynamodb:UpdateItem/);
    assert.match(actions, /lambda:InvokeFunction/);
  });

  it('keeps media in a private bucket that outlives the stack, named to every function', () => {
    const name = 'MediaBucket';
    const bucket = resources[name] as Resource & { DeletionPolicy?: string };
    assert.equal(bucket.Type, 'AWS::S3::Bucket');
    assert.equal(bucket.DeletionPolicy, 'Retain');
    assert.equal(bucket.Properties.PublicAccessBlockConfiguration.BlockPublicPolicy, true);
    for (const [fn, f] of ofType('AWS::Lambda::Function')) {
      assert.equal(f.Properties.Environment.Variables.MEDIA_STORAGE, 's3', fn);
      assert.deepEqual(f.Properties.Environment.Variables.MEDIA_BUCKET, { Ref: name }, fn);
    }
    const actions = JSON.stringify(ofType('AWS::IAM::Role')[0]![1].Properties.Policies);
    assert.match(actions, /s3:ListBucket/);
    assert.match(actions, /s3:GetObject/);
    // Deleting only under the artwork cache's prefix, never a user's media.
    const policies = ofType('AWS::IAM::Role')[0]![1].Properties.Policies as Array<{ PolicyDocument: { Statement: Array<{ Action: string | string[]; Resource: unknown }> } }>;
    const deletes = policies.flatMap((p) => p.PolicyDocument.Statement).filter((s) => [s.Action].flat().includes('s3:DeleteObject'));
    assert.equal(deletes.length, 1);
    assert.match(JSON.stringify(deletes[0]!.Resource), /\.cache\/artwork\/\*/);
  });
});
