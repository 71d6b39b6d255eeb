// The rate-limit counter in the one table: ADD on an item per client and window, expired by TTL.
// (rate-limiter-flexible's DynamoDB store wants a table of its own with its own key schema;
// this is one atomic UpdateItem against the table we already have.)
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { guarded, type Db } from '../db/client';
import { keys, TTL_ATTRIBUTE } from '../db/table';
import type { HitCounter } from './rate-limit';

export const dynamoHitCounter =
  (db: () => Db): HitCounter =>
  async (client, windowStart, expiresAtSeconds) => {
    const { doc, tableName } = db();
    const out = await guarded(() =>
      doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.rateLimit(client, windowStart),
          UpdateExpression: 'ADD #hits :one SET #ttl = if_not_exists(#ttl, :ttl)',
          ExpressionAttributeNames: { '#hits': 'hits', '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':one': 1, ':ttl': expiresAtSeconds },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return Number(out.Attributes?.hits ?? 1);
  };
