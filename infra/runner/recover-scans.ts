// Asks the freshly started handlers to recover scan jobs a crash or power loss left behind
// (functions/scan/maintenance.ts). A failure here is logged, never fatal: the jobs stay as they
// are and cleanup can still interrupt them.
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { LOCAL_CREDENTIALS } from '../../lib/config';
import type { Log } from '../../lib/log';

export const RECOVER_FUNCTION = 'media-library-local-scanRecover';

export const recoverScans = async (lambdaEndpoint: string, log: Log) => {
  const client = new LambdaClient({ endpoint: lambdaEndpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  try {
    const out = await client.send(new InvokeCommand({ FunctionName: RECOVER_FUNCTION, InvocationType: 'RequestResponse' }));
    const result = out.Payload ? JSON.parse(Buffer.from(out.Payload).toString('utf8')) : null;
    if (out.FunctionError) log.warn({ result }, 'scan recovery failed');
    else log.debug({ result }, 'scan recovery done');
  } catch (err) {
    log.warn({ err }, 'scan recovery could not run');
  } finally {
    client.destroy();
  }
};
