// The log reader this process uses, built on first use: the local runner's files where it
// collects them (LOG_DIR), else the stack's CloudWatch Logs group (LOG_GROUP), else none (the
// handler answers 503). Only the logs handler imports this module, so only its bundle carries
// the CloudWatch Logs client.
import { config } from '../config';
import { cloudWatchLogReader, cloudWatchLogsClient } from './cloudwatch';
import { fileLogReader, type LogReader } from './reader';

export { type LogQuery, type LogReader } from './reader';

const configuredReader = (): LogReader | null => {
  if (config.logDir) return fileLogReader(config.logDir);
  const { logGroup, endpoint, localCredentials } = config.cloudWatchLogs;
  if (!logGroup) return null;
  const client = cloudWatchLogsClient({ region: config.db.region, endpoint, localCredentials });
  return cloudWatchLogReader({ client, logGroupName: logGroup });
};

let reader: LogReader | null | undefined;
export const logReader = (): LogReader | null => (reader === undefined ? (reader = configuredReader()) : reader);
