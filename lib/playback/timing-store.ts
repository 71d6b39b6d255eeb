// A file's timing and keyframes (keyframes.ts), kept in the table per version of the file, so
// they are read from the file once: a second viewer, a new session after a seek or another
// member of the household starts without probing. Expired after 30 days unplayed (TTL); a
// replaced file has a new version, so an old index is never used for it.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { guarded, type Db } from '../db/client';
import { keys, TTL_ATTRIBUTE, ttlIn } from '../db/table';
import type { VideoTiming } from './plan';

export interface TimingStore {
  get(mediaId: string, part: number, version: string): Promise<VideoTiming | undefined>;
  put(mediaId: string, part: number, version: string, timing: VideoTiming): Promise<void>;
}

const KEEP_SECONDS = 30 * 24 * 3600;

export class DynamoTimingStore implements TimingStore {
  constructor(private readonly db: () => Db) {}

  async get(mediaId: string, part: number, version: string): Promise<VideoTiming | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.keyframes(mediaId, part, version) })));
    return out.Item?.timing as VideoTiming | undefined;
  }

  async put(mediaId: string, part: number, version: string, timing: VideoTiming): Promise<void> {
    const { doc, tableName } = this.db();
    await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.keyframes(mediaId, part, version), timing, [TTL_ATTRIBUTE]: ttlIn(KEEP_SECONDS) },
        }),
      ),
    );
  }
}
