// Each profile's state of films and episodes in the one table (the access patterns are listed
// in lib/db/table.ts). A state item carries the keys of two sparse indexes: gsi1 "in progress,
// most recent first" while a position is kept, gsi2 "played episodes of a show" while an
// episode is played; a show being watched has an item of its own on gsi1 for Next up. A
// favourite is an attribute of the same items (a show's on its item), on no index.
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, batchWrite, type Write } from '../db/batch';
import { guarded, isConditionFailed, queryItems, type Db } from '../db/client';
import { keys } from '../db/table';
import {
  StaleState,
  type InProgressChange,
  type Placement,
  type ShowState,
  type ShowSummary,
  type StoredState,
  type TitleStates,
} from './model';
import { inProgress } from './rules';
import type { WatchStore } from './watch-store';

const toSummary = (row: Record<string, unknown>): ShowSummary => ({
  playedEpisodes: Number(row.playedEpisodes ?? 0),
  totalEpisodes: Number(row.totalEpisodes ?? 0),
  nextEpisodeId: (row.nextEpisodeId as string | null | undefined) ?? null,
});

const toShowState = (row: Record<string, unknown>): ShowState => ({
  summary: row.totalEpisodes === undefined ? undefined : toSummary(row),
  lastPlayedAt: typeof row.lastPlayedAt === 'string' ? row.lastPlayedAt : null,
  favorite: Boolean(row.favorite),
});

const STATE_FIELDS = ['positionSeconds', 'durationSeconds', 'played', 'playCount', 'lastPlayedAt', 'counted', 'favorite'] as const;

const toState = (row: Record<string, unknown>): StoredState => ({
  mediaId: String(row.mediaId),
  placement: row.placement as Placement,
  positionSeconds: Number(row.positionSeconds ?? 0),
  durationSeconds: row.durationSeconds === null || row.durationSeconds === undefined ? null : Number(row.durationSeconds),
  played: Boolean(row.played),
  playCount: Number(row.playCount ?? 0),
  lastPlayedAt: (row.lastPlayedAt as string | null | undefined) ?? null,
  counted: Boolean(row.counted),
  favorite: Boolean(row.favorite),
  ...(typeof row.rev === 'string' ? { rev: row.rev } : {}),
});

const newRev = () => randomBytes(6).toString('base64url');

export class DynamoWatchStore implements WatchStore {
  constructor(private readonly db: () => Db) {}

  async state(profileId: string, mediaId: string): Promise<StoredState | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.userData(profileId, mediaId) })));
    return out.Item ? toState(out.Item) : undefined;
  }

  async states(profileId: string, mediaIds: readonly string[]): Promise<Map<string, StoredState>> {
    const rows = await batchGet(
      this.db(),
      mediaIds.map((id) => keys.userData(profileId, id)),
    );
    return new Map(rows.map((row) => [String(row.mediaId), toState(row)]));
  }

  /** The state as the item of a profile, with its index keys: in progress while a position is kept, played episodes while played. */
  private row(profileId: string, state: StoredState, rev: string): Record<string, unknown> {
    const { placement } = state;
    return {
      ...keys.userData(profileId, state.mediaId),
      entity: 'userdata',
      profileId,
      mediaId: state.mediaId,
      placement,
      rev,
      ...Object.fromEntries(STATE_FIELDS.map((f) => [f, state[f]])),
      ...(inProgress(state) && state.lastPlayedAt ? keys.inProgress(profileId, state.lastPlayedAt, state.mediaId) : {}),
      ...(placement.entity === 'episode' && state.played
        ? keys.playedEpisode(profileId, placement.showId, placement.seasonNumber, placement.episodeNumber, state.mediaId)
        : {}),
    };
  }

  /**
   * Writes a state read as `expected` (its rev; null: none stored, or stored before revs), and
   * answers its new rev; StaleState when another write came between.
   */
  async put(profileId: string, state: StoredState, expected: string | null): Promise<string> {
    const { doc, tableName } = this.db();
    const rev = newRev();
    const condition =
      expected === null
        ? { ConditionExpression: 'attribute_not_exists(rev)' }
        : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': expected } };
    try {
      await guarded(() => doc.send(new PutCommand({ TableName: tableName, Item: this.row(profileId, state, rev), ...condition })));
    } catch (err) {
      if (isConditionFailed(err)) throw new StaleState(state.mediaId);
      throw err;
    }
    return rev;
  }

  /** Many states at once, as they are now (a whole show marked played). */
  async putMany(profileId: string, states: StoredState[]): Promise<void> {
    await batchWrite(
      this.db(),
      states.map((s) => ({ put: this.row(profileId, s, newRev()) as Record<string, unknown> & { pk: string; sk: string } })),
    );
  }

  /**
   * The show's item: when it was last watched (Next up's order), its summary when given, and
   * the change to its episodes in progress.
   */
  async saveShow(
    profileId: string,
    showId: string,
    lastPlayedAt: string,
    summary?: ShowSummary,
    inProgressChange?: InProgressChange,
  ): Promise<void> {
    const { doc, tableName } = this.db();
    const fields: Record<string, unknown> = {
      ...keys.watching(profileId, lastPlayedAt, showId),
      entity: 'show-watch',
      profileId,
      showId,
      lastPlayedAt,
      ...summary,
    };
    const names = Object.keys(fields);
    const values: Record<string, unknown> = Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n]]));
    let update = `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`;
    if (inProgressChange === 'clear') update += ' REMOVE inProgressEpisodes';
    else if (inProgressChange) {
      const [verb, id] = 'add' in inProgressChange ? ['ADD', inProgressChange.add] : ['DELETE', inProgressChange.remove];
      update += ` ${verb} inProgressEpisodes :episode`;
      values[':episode'] = new Set([id]);
    }
    await guarded(() =>
      doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.showWatch(profileId, showId),
          UpdateExpression: update,
          ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
          ExpressionAttributeValues: values,
        }),
      ),
    );
  }

  /** The items of those of the shows the profile has one of. */
  async showStates(profileId: string, showIds: readonly string[]): Promise<Map<string, ShowState>> {
    const rows = await batchGet(
      this.db(),
      showIds.map((id) => keys.showWatch(profileId, id)),
    );
    return new Map(rows.map((row) => [String(row.showId), toShowState(row)]));
  }

  /**
   * The show's item marked a favourite or not, the rest of it kept. One made here has no index
   * keys (a favourite is not watching: Next up does not see it) until an episode is watched.
   */
  async favoriteShow(profileId: string, showId: string, favorite: boolean): Promise<ShowState> {
    const { doc, tableName } = this.db();
    const out = await guarded(() =>
      doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.showWatch(profileId, showId),
          UpdateExpression: 'SET #entity = :entity, #profileId = :profileId, #showId = :showId, #favorite = :favorite',
          ExpressionAttributeNames: { '#entity': 'entity', '#profileId': 'profileId', '#showId': 'showId', '#favorite': 'favorite' },
          ExpressionAttributeValues: { ':entity': 'show-watch', ':profileId': profileId, ':showId': showId, ':favorite': favorite },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return toShowState(out.Attributes ?? {});
  }

  /** Films and episodes with a position kept, most recently watched first. */
  async inProgress(profileId: string, limit: number): Promise<StoredState[]> {
    const { doc, tableName } = this.db();
    const { index, pk } = keys.inProgressIndex(profileId);
    const out = await guarded(() =>
      doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index,
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ScanIndexForward: false,
          Limit: limit,
        }),
      ),
    );
    return (out.Items ?? []).map(toState);
  }

  /**
   * Up to `limit` shows the profile watched, most recently first, each with the episode after
   * its highest played one, unless that episode is in progress (it is in Continue watching).
   * Read a page of about `limit` at a time, only the fields needed.
   */
  async nextEpisodes(profileId: string, limit: number): Promise<Array<{ showId: string; episodeId: string }>> {
    const { index, pk } = keys.watchingIndex(profileId);
    const found: Array<{ showId: string; episodeId: string }> = [];
    const rows = queryItems(this.db(), {
      IndexName: index,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'showId, nextEpisodeId, inProgressEpisodes',
      ScanIndexForward: false,
      Limit: limit + 5, // a page: the next is read only when finished shows left this one short
    });
    for await (const row of rows) {
      const next = row.nextEpisodeId;
      const inProgress = row.inProgressEpisodes as Set<string> | undefined;
      if (typeof next === 'string' && !inProgress?.has(next)) found.push({ showId: String(row.showId), episodeId: next });
      if (found.length >= limit) break;
    }
    return found;
  }

  /** The played episodes of a show, as (season, episode) in order: keys only. */
  async playedEpisodes(profileId: string, showId: string): Promise<Array<{ seasonNumber: number; episodeNumber: number; id: string }>> {
    const { index, pk } = keys.playedEpisodesIndex(profileId, showId);
    const found = [];
    for await (const row of queryItems(this.db(), {
      IndexName: index,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'gsi2sk',
    })) {
      const [season, episode, id] = String(row.gsi2sk).split('#');
      found.push({ seasonNumber: Number(season), episodeNumber: Number(episode), id: id! });
    }
    return found;
  }

  /**
   * Every profile's state of these items (gone for good), shows included: each profile's own
   * keys are read (a household's state is small) and only those of the items are deleted.
   */
  async removeItems(profileIds: readonly string[], mediaIds: readonly string[]): Promise<void> {
    if (!mediaIds.length) return;
    const gone = new Set(mediaIds.flatMap((id) => [`item#${id}`, `show#${id}`]));
    const writes: Write[] = [];
    for (const profileId of profileIds) {
      const { pk } = keys.userDataOfProfile(profileId);
      for await (const row of queryItems(this.db(), {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'pk, sk',
      })) {
        if (gone.has(String(row.sk))) writes.push({ delete: { pk: String(row.pk), sk: String(row.sk) } });
      }
    }
    await batchWrite(this.db(), writes);
  }

  /**
   * Each film and show of the profile with a state: a film's state, a show's summary, when it
   * was last watched and whether it is a favourite (what lists show, and browsing sorts and filters by). One Query of the
   * profile's partition, those fields only, its episodes left out by the filter (their state is
   * placed in a show).
   */
  async titleStates(profileId: string): Promise<TitleStates> {
    const { pk } = keys.userDataOfProfile(profileId);
    const found: TitleStates = { films: new Map(), shows: new Map() };
    const fields = ['sk', 'mediaId', 'placement', 'rev', ...STATE_FIELDS, 'playedEpisodes', 'totalEpisodes', 'nextEpisodeId'];
    const query = {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'attribute_not_exists(#placement.#showId)',
      ProjectionExpression: fields.map((n) => `#${n}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries([...fields, 'showId'].map((n) => [`#${n}`, n])),
      ExpressionAttributeValues: { ':pk': pk },
    };
    for await (const row of queryItems(this.db(), query)) {
      const [kind, id] = String(row.sk).split(/#(.*)/s);
      if (kind === 'item') found.films.set(id!, toState(row));
      if (kind === 'show') found.shows.set(id!, toShowState(row));
    }
    return found;
  }
}
