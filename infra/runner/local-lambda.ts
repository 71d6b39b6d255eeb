// The handlers' functions as the runner calls them: on offline's Lambda port, the local
// stand-in for Lambda's Invoke API (scan recovery after each start, the monitor's upkeep).
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { LOCAL_CREDENTIALS } from '../../lib/config';

/** A function of serverless.yml as offline names it (the service, the `local` stage, the function). */
export const localFunction = (name: string) => `media-library-local-${name}`;

export const localLambda = (endpoint: string) =>
  new LambdaClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });

/** Invokes a function and waits for it: its result (parsed JSON, null for none) and whether it failed. */
export const invokeAndWait = async (
  client: LambdaClient,
  functionName: string,
  payload?: unknown,
): Promise<{ result: unknown; failed: boolean }> => {
  const out = await client.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'RequestResponse',
      ...(payload === undefined ? {} : { Payload: JSON.stringify(payload) }),
    }),
  );
  const result: unknown = out.Payload ? JSON.parse(Buffer.from(out.Payload).toString('utf8')) : null;
  return { result, failed: Boolean(out.FunctionError) };
};
