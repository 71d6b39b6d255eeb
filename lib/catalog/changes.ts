// The catalogue's change journal. Each move of the version stamp is written in one transaction
// with the ids of the items it announces, so a process holding the catalogue in memory reads
// those items again instead of all of them (lib/catalog/snapshot.ts). A move that cannot
// name its items (too many, or writes a crashed run may have left unannounced) announces
// everything, and readers then read the whole catalogue as before.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { guarded, queryItems, type Db } from '../db/client';
import { keys } from '../db/table';
import type { VersionState } from './snapshot';

/** Moves kept in the journal: a reader further behind than this reads everything. */
export const CHANGES_KEPT = 200;

/** The most ids one move names (about 160 KB: twice a scan's step); a move of more announces everything. */
export const ANNOUNCED_MAX = 4_000;

/** Movers racing for the stamp (two scans, a match fixed) try again this often before giving up. */
const MOVE_ATTEMPTS = 25;

export type Announced = readonly string[] | 'everything';

/** A library whose items readers leave out from this move on (`withdraw`), or no longer need to (`restore`: its items are gone). */
export type Withdrawal = { withdraw: string } | { restore: string };

export const readStamp = async ({ doc, tableName }: Db): Promise<VersionState> => {
  const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.catalogVersion(), ConsistentRead: true })));
  const withdrawn = out.Item?.withdrawn as Set<string> | undefined;
  return { version: Number(out.Item?.version ?? 0), quiet: out.Item?.quiet === true, withdrawn: withdrawn ? [...withdrawn].sort() : [] };
};

/** The stamp's set of withdrawn libraries after `change`. */
export const withdrawnAfter = (withdrawn: readonly string[], change: Withdrawal | undefined): string[] => {
  if (!change) return [...withdrawn];
  const set = new Set(withdrawn);
  if ('withdraw' in change) set.add(change.withdraw);
  else set.delete(change.restore);
  return [...set].sort();
};

/**
 * Moves the stamp by one and records what the move announces, in one transaction that holds
 * only if nobody moved it since it was read; a mover that lost the race reads it again.
 */
export const moveStamp = async (db: Db, quiet: boolean, announced: Announced, change?: Withdrawal): Promise<VersionState> => {
  const { doc, tableName } = db;
  const named = announced !== 'everything' && announced.length <= ANNOUNCED_MAX ? [...announced] : undefined;
  for (let attempt = 1; ; attempt++) {
    const { version, withdrawn } = await readStamp(db);
    const next = version + 1;
    // A set attribute of DynamoDB: ADD and DELETE change it in place, and it may not be empty.
    const setChange = change
      ? 'withdraw' in change
        ? { expression: ' ADD withdrawn :lib', lib: change.withdraw }
        : { expression: ' DELETE withdrawn :lib', lib: change.restore }
      : undefined;
    try {
      await guarded(() =>
        doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.catalogVersion(),
                  UpdateExpression: `SET #v = :next, quiet = :quiet${setChange?.expression ?? ''}`,
                  ConditionExpression: 'attribute_not_exists(#v) OR #v = :read',
                  ExpressionAttributeNames: { '#v': 'version' },
                  ExpressionAttributeValues: {
                    ':next': next,
                    ':quiet': quiet,
                    ':read': version,
                    ...(setChange ? { ':lib': new Set([setChange.lib]) } : {}),
                  },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...keys.catalogChange(next),
                    entity: 'catalog-change',
                    version: next,
                    ...(named ? { ids: named } : { everything: true }),
                  },
                },
              },
              ...(next > CHANGES_KEPT ? [{ Delete: { TableName: tableName, Key: keys.catalogChange(next - CHANGES_KEPT) } }] : []),
            ],
          }),
        ),
      );
      return { version: next, quiet, withdrawn: withdrawnAfter(withdrawn ?? [], change) };
    } catch (err) {
      if ((err as Error).name !== 'TransactionCanceledException' || attempt >= MOVE_ATTEMPTS) throw err;
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
};

/**
 * The ids the moves after `from` up to `to` announced, each once; undefined when one of them
 * announced everything or is no longer kept.
 */
export const changedBetween = async (db: Db, from: number, to: number): Promise<string[] | undefined> => {
  if (to <= from) return [];
  if (to - from > CHANGES_KEPT) return undefined;
  const ids = new Set<string>();
  let moves = 0;
  for await (const move of queryItems(db, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.catalogChange(from + 1).pk,
      ':from': keys.catalogChange(from + 1).sk,
      ':to': keys.catalogChange(to).sk,
    },
    ConsistentRead: true,
  })) {
    if (move.everything === true || !Array.isArray(move.ids)) return undefined;
    for (const id of move.ids as string[]) ids.add(id);
    moves++;
  }
  return moves === to - from ? [...ids] : undefined;
};
