// Starts the scan worker asynchronously, for a scan's run or a library's removal (an `Event`
// invocation: Lambda queues it and answers 202 at once). Locally the endpoint is serverless-offline's Lambda port.
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { dependencyUnavailable } from '../errors';

/** A scan: the job, and which run of it (a stale duplicate stops itself). */
export interface ScanRun {
  jobId: string;
  run: number;
  /** Set while the job waits for the database to come back: since when (epoch ms). */
  waitingSince?: number;
}

/** The removal of a library marked as being removed (lib/scan/library-removal.ts). */
export interface RemovalRun {
  removeLibrary: string;
}

/** What the worker is invoked with. */
export type WorkerPayload = ScanRun | RemovalRun;

export interface WorkerInvoker {
  invoke(payload: WorkerPayload, functionName?: string): Promise<void>;
}

export interface InvokerOptions {
  endpoint?: string | undefined;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  functionName: string;
}

export const lambdaInvoker = (options: InvokerOptions): WorkerInvoker => {
  let client: LambdaClient | undefined;
  return {
    async invoke(payload, functionName = options.functionName) {
      client ??= new LambdaClient({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        maxAttempts: 3,
        requestHandler: { connectionTimeout: 2_000, requestTimeout: 10_000 },
      });
      try {
        const out = await client.send(
          new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify(payload)) }),
        );
        if (out.StatusCode !== 202) throw new Error(`the worker invocation answered ${out.StatusCode}`);
      } catch (err) {
        throw dependencyUnavailable('scan worker', err);
      }
    },
  };
};
