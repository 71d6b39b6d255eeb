// WebSocket connections in the one table, with a TTL a little past API Gateway's 2-hour
// connection limit, so a connection whose $disconnect never ran still goes away.
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { guarded, queryItems, type Db } from '../db/client';
import { keys, ttlIn } from '../db/table';

export const CONNECTION_TTL_SECONDS = 2 * 60 * 60 + 10 * 60;

export interface Connection {
  connectionId: string;
  connectedAt: string;
  client: string;
  /** A socket of the Jellyfin door (/socket), logged in as this profile: it gets the door's messages, not ours. */
  door?: { profileId: string };
}

export interface ConnectionStore {
  add(connection: Connection): Promise<void>;
  remove(connectionId: string): Promise<void>;
  list(): Promise<Connection[]>;
}

export class DynamoConnectionStore implements ConnectionStore {
  constructor(private readonly db: () => Db) {}

  async add(connection: Connection) {
    const { doc, tableName } = this.db();
    await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.wsConnection(connection.connectionId),
            entity: 'ws-connection',
            ...connection,
            ttl: ttlIn(CONNECTION_TTL_SECONDS),
          },
        }),
      ),
    );
  }

  async remove(connectionId: string) {
    const { doc, tableName } = this.db();
    await guarded(() => doc.send(new DeleteCommand({ TableName: tableName, Key: keys.wsConnection(connectionId) })));
  }

  async list(): Promise<Connection[]> {
    const { pk, skPrefix } = keys.wsConnections();
    const now = Math.floor(Date.now() / 1000);
    const found: Connection[] = [];
    const items = queryItems(this.db(), {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    });
    // DynamoDB deletes expired items lazily (and DynamoDB Local not at all): skip them here.
    for await (const item of items) if (!(Number(item.ttl) < now)) found.push(item as unknown as Connection);
    return found;
  }
}
