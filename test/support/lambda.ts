// Calling an exported handler directly, the way Lambda does, with a sample event from events/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { PROJECT_DIR } from '../../infra/project';

export const sampleEvent = <T = any>(name: string, patch: (e: any) => void = () => {}): T => {
  const event = JSON.parse(readFileSync(join(PROJECT_DIR, 'events', `${name}.json`), 'utf8'));
  patch(event);
  return event as T;
};

/** The context Lambda hands a handler (what our stack reads of it is only the request id). */
export const lambdaContext = (functionName: string): Context => ({
  callbackWaitsForEmptyEventLoop: false,
  functionName,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
  memoryLimitInMB: '512',
  awsRequestId: 'handler-test',
  logGroupName: `/aws/lambda/${functionName}`,
  logStreamName: 'test',
  getRemainingTimeInMillis: () => 29_000,
  done: () => {},
  fail: () => {},
  succeed: () => {},
});
