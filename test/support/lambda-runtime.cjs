// One Lambda execution environment of the cloud-shaped run (test/support/cloud.ts), started in
// a process of its own as Lambda's Node runtime starts: `_HANDLER` names the module and export
// below LAMBDA_TASK_ROOT, the layer is on NODE_PATH, invocations arrive one at a time. Plain
// CommonJS, because it runs with nothing but the task's and the layer's files to load.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const [modulePath, exportName] = (() => {
  const handler = process.env._HANDLER;
  const dot = handler.lastIndexOf('.');
  return [handler.slice(0, dot), handler.slice(dot + 1)];
})();

/** Lambda's lookup of the handler's module: .js, then .mjs, then .cjs. */
const moduleFile = ['.js', '.mjs', '.cjs'].map((ext) => join(process.env.LAMBDA_TASK_ROOT, modulePath + ext)).find((f) => existsSync(f));

const describe = (err) => ({
  errorType: err instanceof Error ? err.name : typeof err,
  errorMessage: err instanceof Error ? err.message : String(err),
  stack: err instanceof Error ? String(err.stack).split('\n') : [],
});

let handler;
try {
  if (!moduleFile) throw new Error(`Cannot find module '${modulePath}' below ${process.env.LAMBDA_TASK_ROOT}`);
  handler = require(moduleFile)[exportName];
  if (typeof handler !== 'function') throw new Error(`${modulePath}.${exportName} is not a function`);
  process.send({ type: 'ready' });
} catch (err) {
  process.send({ type: 'init-error', error: describe(err) }, () => process.exit(1));
}

process.on('message', async (message) => {
  if (message.type !== 'invoke') return;
  const { requestId, event, deadline } = message;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:123456789012:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: requestId,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    const result = await handler(event, context);
    process.send({ type: 'result', requestId, result: result === undefined ? null : result });
  } catch (err) {
    process.send({ type: 'error', requestId, error: describe(err) });
  }
});
