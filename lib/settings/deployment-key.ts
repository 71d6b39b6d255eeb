// The TMDB key the deployment provides (a key saved in the settings wins over it):
// TMDB_API_KEY at home, or in the cloud the SSM parameter TMDB_API_KEY_PARAMETER names. The
// SSM client is loaded only where a parameter is configured.
import { config } from '../config';

let readParameter: (() => Promise<string | undefined>) | undefined;

export const deploymentKey = async (): Promise<string | undefined> => {
  const { apiKey, apiKeyParameter, ssmEndpoint, ssmLocalCredentials } = config.tmdb;
  if (apiKey || !apiKeyParameter) return apiKey;
  if (!readParameter) {
    const { keyParameter } = await import('./key-parameter');
    readParameter = keyParameter({
      name: apiKeyParameter,
      region: config.db.region,
      endpoint: ssmEndpoint,
      localCredentials: ssmLocalCredentials,
    });
  }
  return readParameter();
};
