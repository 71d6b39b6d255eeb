// Who a request to the Jellyfin door says it is, in every form the apps send: the
// `Authorization` header (`MediaBrowser` or `Emby` scheme, `Key="value"` pairs in any order,
// URL-encoded values: Android TV sends `Client="Jellyfin+Android+TV"`), `X-Emby-Authorization`
// (Infuse), `X-Emby-Token`, `X-MediaBrowser-Token`, and the `ApiKey` and `api_key` query keys
// (the web client's socket, older playlist URLs). Jellyfin 12 turned the older forms off and
// apps broke: all are taken here.

export interface DoorCaller {
  token?: string;
  client?: string;
  device?: string;
  deviceId?: string;
  version?: string;
}

const SCHEME = /^\s*(?:MediaBrowser|Emby)\s+/iu;
const PAIR = /([A-Za-z]+)\s*=\s*"([^"]*)"/gu;
/** Values longer than this are not what an app sends: left out. */
const MAX_VALUE = 512;

const decoded = (value: string) => {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
};

/** The `Key="value"` pairs of an authorization header, keys lower-cased; none when it is another scheme. */
export const authorizationFields = (header: string | undefined): Map<string, string> => {
  const fields = new Map<string, string>();
  if (!header || !SCHEME.test(header)) return fields;
  for (const [, key, value] of header.replace(SCHEME, '').matchAll(PAIR)) {
    if (value!.length <= MAX_VALUE) fields.set(key!.toLowerCase(), decoded(value!).trim());
  }
  return fields;
};

/** The caller, from headers (names lower-cased) and query (keys lower-cased). */
export const callerOf = (headers: Readonly<Record<string, string | undefined>>, query: ReadonlyMap<string, string>): DoorCaller => {
  const fields = authorizationFields(headers['authorization']);
  const other = authorizationFields(headers['x-emby-authorization']);
  const pick = (key: string) => fields.get(key) || other.get(key) || undefined;
  const token =
    pick('token') ||
    headers['x-emby-token']?.trim() ||
    headers['x-mediabrowser-token']?.trim() ||
    query.get('apikey') ||
    query.get('api_key') ||
    undefined;
  const caller: DoorCaller = {};
  if (token && token.length <= MAX_VALUE) caller.token = token;
  for (const key of ['client', 'device', 'version'] as const) {
    const value = pick(key);
    if (value) caller[key] = value;
  }
  const deviceId = pick('deviceid') || query.get('deviceid');
  if (deviceId && deviceId.length <= MAX_VALUE) caller.deviceId = deviceId;
  return caller;
};
