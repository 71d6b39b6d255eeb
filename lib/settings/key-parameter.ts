// The TMDB key of a cloud deployment: an SSM Parameter Store SecureString (named by
// TMDB_API_KEY_PARAMETER), so the key is neither in the template nor in the functions'
// environment, where the console and `get-function-configuration` show it in plain text.
// Read at first use and again after a few minutes, so a rotated key is taken without a deploy.
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { dependencyUnavailable } from '../errors';

export interface KeyParameterOptions {
  name: string;
  region: string;
  /** A local stand-in for SSM; unset for AWS. */
  endpoint?: string | undefined;
  localCredentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  ttlMs?: number;
  now?: () => number;
}

/** A reader of the parameter: its value, or undefined while it does not exist (no key yet). */
export const keyParameter = ({ name, region, endpoint, localCredentials, ttlMs = 5 * 60_000, now = Date.now }: KeyParameterOptions) => {
  const client = new SSMClient({
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(localCredentials ? { credentials: localCredentials } : {}),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
  });
  let cached: { value: string | undefined; at: number } | undefined;
  return async (): Promise<string | undefined> => {
    if (cached && now() - cached.at < ttlMs) return cached.value;
    try {
      const { Parameter } = await client.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
      cached = { value: Parameter?.Value?.trim() || undefined, at: now() };
    } catch (err) {
      if ((err as { name?: string }).name === 'ParameterNotFound') cached = { value: undefined, at: now() };
      // A key read a moment ago is still the key: SSM throttling a burst must not stop a scan.
      else if (cached) return cached.value;
      else throw dependencyUnavailable(`TMDB key parameter ${name} (SSM)`, err);
    }
    return cached.value;
  };
};
