// Provider responses kept in the table (the ProviderCache port), so a rescan, a resumed scan or
// a second library with the same titles asks the provider nothing it asked within the TTL.
// Values are gzipped JSON (cast lists compress well, and an item must stay under 400 KB). The
// table's TTL removes old entries eventually; a read checks the expiry itself, because
// DynamoDB deletes expired items only some time later.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../db/client';
import { keys, TTL_ATTRIBUTE } from '../db/table';
import type { ProviderCache } from './provider';

const MAX_BYTES = 350_000;

export class DynamoProviderCache implements ProviderCache {
  constructor(
    private readonly db: () => Db,
    private readonly clock: () => number = Date.now,
  ) {}

  private key(request: string) {
    return keys.providerResponse(createHash('sha256').update(request).digest('base64url'));
  }

  async get(request: string): Promise<unknown> {
    const { doc, tableName } = this.db();
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: this.key(request) }));
    const item = out.Item as { request?: string; body?: Uint8Array } | undefined;
    if (!item?.body || item.request !== request) return undefined;
    const expires = Number(out.Item?.[TTL_ATTRIBUTE] ?? 0);
    if (expires * 1000 <= this.clock()) return undefined;
    return JSON.parse(gunzipSync(item.body).toString('utf8'));
  }

  async put(request: string, value: unknown, ttlSeconds: number): Promise<void> {
    const body = gzipSync(JSON.stringify(value));
    if (body.length > MAX_BYTES) return; // too big to keep: asked again next time
    const { doc, tableName } = this.db();
    await doc.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...this.key(request), request, body, [TTL_ATTRIBUTE]: Math.floor(this.clock() / 1000) + ttlSeconds },
      }),
    );
  }
}
