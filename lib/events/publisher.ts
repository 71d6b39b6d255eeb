// Fans an event out to every WebSocket connection through the API Gateway management API
// (offline's WebSocket port locally). Connections that are gone (410) are dropped from the
// store. Usable from any handler or worker: it needs only the endpoint and the store.
import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { ServerEvent } from '../api/schemas';
import type { Log } from '../log';
import type { ConnectionStore } from './connections';

export interface PublishResult {
  delivered: number;
  dropped: number;
  failed: number;
}

export interface PublisherOptions {
  endpoint: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  connections: ConnectionStore;
  log: Log;
  /** What a door socket of the profile gets of an event (lib/jellyfin/socket.ts); undefined: nothing. */
  doorMessage?: (event: ServerEvent, profileId: string) => unknown;
}

const isGone = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  // Offline answers 410 with an SDK error named "Unknown": the status is what counts.
  return e.name === 'GoneException' || e.$metadata?.httpStatusCode === 410;
};

export class Publisher {
  private readonly client: ApiGatewayManagementApiClient;

  constructor(private readonly options: PublisherOptions) {
    this.client = new ApiGatewayManagementApiClient({
      endpoint: options.endpoint,
      region: options.region,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 },
    });
  }

  /** Sends one message to one connection; false when the connection is gone. */
  async send(connectionId: string, message: ServerEvent | object): Promise<boolean> {
    try {
      await this.client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(message)) }));
      return true;
    } catch (err) {
      if (isGone(err)) return false;
      throw err;
    }
  }

  async publish(event: ServerEvent): Promise<PublishResult> {
    const result: PublishResult = { delivered: 0, dropped: 0, failed: 0 };
    const connections = await this.options.connections.list();
    await Promise.all(
      connections.map(async ({ connectionId, door }) => {
        const message = door ? this.options.doorMessage?.(event, door.profileId) : event;
        if (!message) return;
        try {
          if (await this.send(connectionId, message)) result.delivered++;
          else {
            result.dropped++;
            await this.options.connections.remove(connectionId);
          }
        } catch (err) {
          result.failed++;
          this.options.log.warn({ err, connectionId, type: event.type }, 'websocket delivery failed');
        }
      }),
    );
    return result;
  }
}
