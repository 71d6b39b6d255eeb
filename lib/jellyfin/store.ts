// What the Jellyfin door keeps in the one table (access patterns in lib/db/table.ts): the server
// id the apps know the box by, made once; tokens, each a profile on one device (a new login from
// the device replaces its token, a logout ends it, a restart keeps them); display preferences
// per profile, client and id (Jellyfin's web client keeps its settings there).
import { randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { guarded, isConditionFailed, type Db } from '../db/client';
import { keys, TTL_ATTRIBUTE, ttlIn } from '../db/table';
import { BoundedMap } from '../util/bounded-map';

export interface DoorSession {
  token: string;
  profileId: string;
  deviceId: string;
  client: string;
  device: string;
  version: string;
  createdAt: string;
}

const PLAY_TTL_SECONDS = 2 * 24 * 3600;

/** A token read here is trusted this long in a shared process, where every login and logout goes through this store. */
const TOKEN_FRESH_MS = 5_000;

export class DoorStore {
  private serverId: Promise<string> | undefined;
  private readonly sessions = new BoundedMap<string, DoorSession | null>({ maxSize: 1_000, maxAgeMs: TOKEN_FRESH_MS });

  /**
   * `keepSessions`: remember tokens read (a shared process, where every login and logout passes
   * here). In a Lambda another function's logout would go unseen, so each request reads its token.
   */
  constructor(
    private readonly db: () => Db,
    private readonly keepSessions = false,
  ) {}

  /** The box's id for the apps, made on first asking and kept (two processes racing keep the first). */
  server(): Promise<string> {
    this.serverId ??= this.readServerId().catch((err: unknown) => {
      this.serverId = undefined;
      throw err;
    });
    return this.serverId;
  }

  private async readServerId(): Promise<string> {
    const { doc, tableName } = this.db();
    const found = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.jellyfinServer(), ConsistentRead: true })));
    if (typeof found.Item?.serverId === 'string') return found.Item.serverId;
    const serverId = randomUUID().replaceAll('-', '');
    try {
      await guarded(() =>
        doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.jellyfinServer(), entity: 'jellyfin-server', serverId },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
      return serverId;
    } catch (err) {
      if (isConditionFailed(err)) return this.readServerId();
      throw err;
    }
  }

  /** A new token for the profile on this device; the device's previous token for it ends. */
  async login(profileId: string, device: Omit<DoorSession, 'token' | 'profileId' | 'createdAt'>): Promise<DoorSession> {
    const { doc, tableName } = this.db();
    const session: DoorSession = { token: randomBytes(16).toString('hex'), profileId, ...device, createdAt: new Date().toISOString() };
    const before = await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.jellyfinDevice(profileId, device.deviceId), entity: 'jellyfin-device', token: session.token },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    await guarded(() =>
      doc.send(
        new PutCommand({ TableName: tableName, Item: { ...keys.jellyfinToken(session.token), entity: 'jellyfin-token', ...session } }),
      ),
    );
    const old: unknown = before.Attributes?.token;
    if (typeof old === 'string' && old !== session.token) await this.end(old);
    if (this.keepSessions) this.sessions.set(session.token, session);
    return session;
  }

  /** The session a token stands for; undefined for a token never given or ended. */
  async session(token: string): Promise<DoorSession | undefined> {
    const kept = this.keepSessions ? this.sessions.get(token) : undefined;
    if (kept !== undefined) return kept ?? undefined;
    const { doc, tableName } = this.db();
    const found = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.jellyfinToken(token) })));
    const session = found.Item ? (found.Item as unknown as DoorSession) : undefined;
    if (this.keepSessions) this.sessions.set(token, session ?? null);
    return session;
  }

  async end(token: string): Promise<void> {
    const { doc, tableName } = this.db();
    if (this.keepSessions) this.sessions.set(token, null);
    await guarded(() => doc.send(new DeleteCommand({ TableName: tableName, Key: keys.jellyfinToken(token) })));
  }

  async preferences(profileId: string, client: string, id: string): Promise<Record<string, unknown> | undefined> {
    const { doc, tableName } = this.db();
    const found = await guarded(() =>
      doc.send(new GetCommand({ TableName: tableName, Key: keys.jellyfinPreferences(profileId, client, id) })),
    );
    return found.Item?.value as Record<string, unknown> | undefined;
  }

  async savePreferences(profileId: string, client: string, id: string, value: Record<string, unknown>): Promise<void> {
    const { doc, tableName } = this.db();
    await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.jellyfinPreferences(profileId, client, id), entity: 'jellyfin-preferences', value },
        }),
      ),
    );
  }

  /**
   * The conversion a device plays now becomes `sessionId` (null: none); answers the one it had,
   * which the caller ends (one conversion per device). Kept on the device's item, which a new
   * login from the device replaces.
   */
  async swapConversion(profileId: string, deviceId: string, sessionId: string | null): Promise<string | undefined> {
    const { doc, tableName } = this.db();
    const send = () =>
      doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.jellyfinDevice(profileId, deviceId),
          ...(sessionId === null
            ? { UpdateExpression: 'REMOVE playSessionId', ConditionExpression: 'attribute_exists(pk)' }
            : {
                UpdateExpression: 'SET playSessionId = :s, entity = :e',
                ExpressionAttributeValues: { ':s': sessionId, ':e': 'jellyfin-device' },
              }),
          ReturnValues: 'UPDATED_OLD',
        }),
      );
    // Nothing to remove where the device has no item: nothing is made for it either.
    const out = await guarded(send).catch((err: unknown) => {
      if (isConditionFailed(err)) return { Attributes: undefined };
      throw err;
    });
    const before: unknown = out.Attributes?.playSessionId;
    return typeof before === 'string' && before !== sessionId ? before : undefined;
  }

  /**
   * The conversion a play session of the door plays: `sessionId` unless another request of the
   * same play session bound one first (a player asking for the playlist twice at once), whose is
   * answered then. Kept two days at most, longer than any film is watched in one go.
   */
  async bindConversion(playSessionId: string, sessionId: string, replacing?: string): Promise<string> {
    const { doc, tableName } = this.db();
    try {
      await guarded(() =>
        doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.jellyfinPlay(playSessionId), entity: 'jellyfin-play', sessionId, [TTL_ATTRIBUTE]: ttlIn(PLAY_TTL_SECONDS) },
            // A conversion that ended (idle, stopped) is replaced by the one started after it.
            ...(replacing
              ? { ConditionExpression: 'attribute_not_exists(pk) OR sessionId = :old', ExpressionAttributeValues: { ':old': replacing } }
              : { ConditionExpression: 'attribute_not_exists(pk)' }),
          }),
        ),
      );
      return sessionId;
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      return (await this.conversionOf(playSessionId)) ?? sessionId;
    }
  }

  /** The conversion bound to a play session; undefined when none was (a direct play) or it is gone. */
  async conversionOf(playSessionId: string): Promise<string | undefined> {
    const { doc, tableName } = this.db();
    const found = await guarded(() =>
      doc.send(new GetCommand({ TableName: tableName, Key: keys.jellyfinPlay(playSessionId), ConsistentRead: true })),
    );
    return typeof found.Item?.sessionId === 'string' ? found.Item.sessionId : undefined;
  }
}
