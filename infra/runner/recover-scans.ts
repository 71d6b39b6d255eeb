// Asks the freshly started handlers to recover scan jobs a crash or power loss left behind
// (functions/scan/maintenance.ts). A failure here is logged, never fatal: the jobs stay as they
// are and cleanup can still interrupt them.
import type { Log } from '../../lib/log';
import { invokeAndWait, localFunction, localLambda } from './local-lambda';

const RECOVER_FUNCTION = localFunction('scanRecover');

export const recoverScans = async (lambdaEndpoint: string, log: Log) => {
  const client = localLambda(lambdaEndpoint);
  try {
    const { result, failed } = await invokeAndWait(client, RECOVER_FUNCTION);
    if (failed) log.warn({ result }, 'scan recovery failed');
    else log.debug({ result }, 'scan recovery done');
  } catch (err) {
    log.warn({ err }, 'scan recovery could not run');
  } finally {
    client.destroy();
  }
};
