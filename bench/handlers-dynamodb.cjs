// Preloaded (NODE_OPTIONS=--require) into the node processes of the bench's shared stack
// (bench/library.ts): in serverless-offline's process only, it points the handlers' DynamoDB
// client at BENCH_HANDLERS_DYNAMODB_ENDPOINT (the counting proxy of bench/ddb-proxy.ts, in front
// of the instance's own DynamoDB Local) before any handler reads DYNAMODB_ENDPOINT. Everything
// else stays as a box on its own runs; the runner itself (table upgrades, scan recovery) still
// talks to the database directly.
'use strict';
const via = process.env.BENCH_HANDLERS_DYNAMODB_ENDPOINT;
const offline = process.argv.some((a) => /[\\/]serverless\.js$/.test(a)) && process.argv.includes('offline');
if (via && offline && process.env.DYNAMODB_ENDPOINT) process.env.DYNAMODB_ENDPOINT = via;
