// `npm run package` builds a deployable artifact without AWS credentials: both APIs, the
// table from lib/db/table.json, one bundled function per route, on the cloud runtime.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { allOperations } from '../../lib/api/operations';
import { DOOR_AREAS } from '../../lib/jellyfin/routes';
import { TABLE_DEFINITION } from '../../lib/db/table';
import { startCloud, type Cloud } from '../support/cloud';
import { tempDir } from '../support/instance';
import { packaged } from '../support/packaged';
import { zipNames } from '../support/zip';

type Resource = { Type: string; Properties: Record<string, any> };
let resources: Record<string, Resource>;
let out: string;

before(async () => {
  out = await packaged();
  resources = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8')).Resources;
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe('npm run package', () => {
  it('has an HTTP API and a WebSocket API', () => {
    const protocols = ofType('AWS::ApiGatewayV2::Api')
      .map(([, r]) => r.Properties.ProtocolType)
      .sort();
    assert.deepEqual(protocols, ['HTTP', 'WEBSOCKET']);
  });

  it("routes every operation, the Jellyfin door's areas, the catch-all and the three WebSocket routes", () => {
    const routes = ofType('AWS::ApiGatewayV2::Route')
      .map(([, r]) => r.Properties.RouteKey)
      .sort();
    const http = allOperations.map((o) => `${o.method} ${o.path}`);
    const door = DOOR_AREAS.map((area) => `ANY /jellyfin/${area}/{proxy+}`);
    const expected = [...http, ...door, '$default', '$connect', '$disconnect', '$default'].sort();
    assert.deepEqual(routes, expected);
  });

  it('creates the table from lib/db/table.json', () => {
    const tables = ofType('AWS::DynamoDB::Table');
    assert.equal(tables.length, 1);
    assert.deepEqual(tables[0]![1].Properties, TABLE_DEFINITION);
  });

  it('bundles each function for the cloud runtime, with its table and WebSocket endpoint', () => {
    const functions = ofType('AWS::Lambda::Function');
    // One per operation, one per area of the Jellyfin door, the catch-all, three WebSocket routes, the scan
    // worker, recovery, the library upkeep and the disk report (invoked by the home runner only; deployed with
    // the rest, as one template serves both).
    assert.equal(functions.length, allOperations.length + DOOR_AREAS.length + 8);
    for (const [name, fn] of functions) {
      assert.equal(fn.Properties.Runtime, 'nodejs22.x', name);
      assert.deepEqual(fn.Properties.Environment.Variables.TABLE_NAME, { Ref: 'MediaTable' });
      assert.ok(fn.Properties.Environment.Variables.WS_MANAGEMENT_ENDPOINT['Fn::Join'], name);
    }
    for (const zip of ['health', 'getSettings', 'wsMessage', 'docsAsset', 'scanWorker', 'jellyfinLibrary'])
      assert.ok(existsSync(join(out, `${zip}.zip`)), zip);
  });

  it('runs the library upkeep (scheduled rescans) on an EventBridge schedule', () => {
    const rules = ofType('AWS::Events::Rule');
    const rule = rules.find(([, r]) => JSON.stringify(r.Properties.Targets).includes('LibraryUpkeep'));
    assert.ok(rule, `a rule targets the upkeep function: ${JSON.stringify(rules.map(([n]) => n))}`);
    assert.equal(rule[1].Properties.ScheduleExpression, 'rate(15 minutes)');
  });

  it("gives the scan worker Lambda's longest timeout, and its name to the functions that start it", () => {
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

  it("names the media bucket in the stack's outputs, where libraries are made", () => {
    const outputs = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8')).Outputs;
    assert.deepEqual(outputs.MediaBucketName.Value, { Ref: 'MediaBucket' });
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
    const policies = ofType('AWS::IAM::Role')[0]![1].Properties.Policies as Array<{
      PolicyDocument: { Statement: Array<{ Action: string | string[]; Resource: unknown }> };
    }>;
    const deletes = policies.flatMap((p) => p.PolicyDocument.Statement).filter((s) => [s.Action].flat().includes('s3:DeleteObject'));
    assert.equal(deletes.length, 1);
    assert.match(JSON.stringify(deletes[0]!.Resource), /\.cache\/artwork\/\*/);
  });

  it('logs every function into one group, which the logs function may read', () => {
    const [, group] = ofType('AWS::Logs::LogGroup').find(([name]) => name === 'ServiceLogGroup')!;
    const name = group.Properties.LogGroupName;
    assert.equal(name, '/aws/lambda/media-library-prod');
    for (const [fn, f] of ofType('AWS::Lambda::Function')) {
      assert.equal(f.Properties.LoggingConfig.LogGroup, name, fn);
      assert.equal(f.Properties.Environment.Variables.LOG_GROUP, name, fn);
    }
    const statements = (
      ofType('AWS::IAM::Role')[0]![1].Properties.Policies as Array<{
        PolicyDocument: { Statement: Array<{ Action: string | string[]; Resource: unknown }> };
      }>
    ).flatMap((p) => p.PolicyDocument.Statement);
    const filter = statements.find((s) => [s.Action].flat().includes('logs:FilterLogEvents'));
    assert.match(JSON.stringify(filter?.Resource), /ServiceLogGroup/);
  });

  it("names the TMDB key's SSM parameter to the functions, never the key, and lets them read that parameter only", () => {
    for (const [fn, f] of ofType('AWS::Lambda::Function')) {
      assert.equal(f.Properties.Environment.Variables.TMDB_API_KEY_PARAMETER, '/media-library/prod/tmdb-api-key', fn);
      assert.equal(f.Properties.Environment.Variables.TMDB_API_KEY, undefined, fn);
    }
    const statements = (
      ofType('AWS::IAM::Role')[0]![1].Properties.Policies as Array<{
        PolicyDocument: { Statement: Array<{ Action: string | string[]; Resource: unknown }> };
      }>
    ).flatMap((p) => p.PolicyDocument.Statement);
    const read = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('ssm:')));
    assert.deepEqual(
      read.map((s) => s.Action),
      [['ssm:GetParameter']],
    );
    assert.match(JSON.stringify(read[0]!.Resource), /:parameter\/media-library\/prod\/tmdb-api-key"/);
  });

  it('ships a runtime layer with sharp for x86_64 and mediainfo.js with its WebAssembly, on every function', () => {
    const layers = ofType('AWS::Lambda::LayerVersion');
    assert.equal(layers.length, 1);
    const [layerId, layer] = layers[0]!;
    assert.deepEqual(layer.Properties.CompatibleArchitectures, ['x86_64']);
    assert.deepEqual(layer.Properties.CompatibleRuntimes, ['nodejs22.x']);
    const names = zipNames(join(out, layer.Properties.Content.S3Key.split('/').pop()));
    for (const file of [
      'nodejs/node_modules/sharp/package.json',
      'nodejs/node_modules/@img/sharp-linux-x64/lib/sharp-linux-x64-0.35.5.node',
      'nodejs/node_modules/mediainfo.js/dist/cjs/index.cjs',
      'nodejs/node_modules/mediainfo.js/dist/MediaInfoModule.wasm',
    ])
      assert.ok(names.includes(file), `${file} in the layer`);
    assert.ok(
      names.some((n) => /^nodejs\/node_modules\/@img\/sharp-libvips-linux-x64\/lib\/libvips-cpp\.so/.test(n)),
      'libvips in the layer',
    );
    // The command line's and the browser's parts of mediainfo.js stay out.
    assert.ok(
      !names.some((n) => n.includes('/yargs/') || n.includes('mediainfo.js/dist/umd') || n.includes('mediainfo.js/dist/esm')),
      'no CLI or browser builds',
    );
    for (const [name, fn] of ofType('AWS::Lambda::Function')) {
      assert.deepEqual(fn.Properties.Architectures, ['x86_64'], name);
      assert.deepEqual(fn.Properties.Layers, [{ Ref: layerId }], name);
    }
  });
});

// The zip check: every function's zip unpacked alone, the layer beside it (as Lambda mounts it
// in /opt, on NODE_PATH), far from the project's node_modules; each handler's module must load.
describe('the packaged zips, as Lambda loads them', () => {
  let cloud: Cloud;
  before(async () => {
    cloud = await startCloud({
      packageDir: out,
      root: tempDir('zip-check'),
      resources: { MediaTable: 'media', MediaBucket: 'media', WebsocketsApi: 'ws' },
      endpoints: {},
      credentials: { accessKeyId: 'none', secretAccessKey: 'none' },
    });
  });
  after(async () => cloud?.stop());

  it("loads every function's handler with only its zip and the layer on the module path", async () => {
    assert.equal(cloud.functions.length, ofType('AWS::Lambda::Function').length);
    for (const fn of cloud.functions) await cloud.coldStart(fn.name);
  });

  it("runs the layer's sharp (native) and mediainfo.js (WebAssembly) from a function's folder", () => {
    const artwork = cloud.functions.find((f) => f.name.endsWith('-artwork'))!;
    const opt = join(artwork.codeDir, '..', '..', 'opt', 'nodejs', 'node_modules');
    const script = `
      const sharp = require('sharp');
      const { mediaInfoFactory } = require('mediainfo.js');
      const wasm = require.resolve('mediainfo.js/MediaInfoModule.wasm');
      (async () => {
        const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
        const { width } = await sharp(png).metadata();
        const mi = await mediaInfoFactory({ format: 'object', locateFile: () => wasm });
        const result = await mi.analyzeData(png.length, async (size, offset) => png.subarray(offset, offset + size));
        mi.close();
        console.log(JSON.stringify({ sharp: require.resolve('sharp'), wasm, width, format: result.media.track[1].Format }));
      })().catch((e) => { console.error(e); process.exit(1); });`;
    const printed = execFileSync(process.execPath, ['-e', script], {
      cwd: artwork.codeDir,
      env: { NODE_PATH: opt, PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
    });
    const seen = JSON.parse(printed);
    assert.ok(seen.sharp.startsWith(opt), seen.sharp);
    assert.ok(seen.wasm.startsWith(opt), seen.wasm);
    assert.equal(seen.width, 8);
    assert.equal(seen.format, 'PNG');
  });
});
