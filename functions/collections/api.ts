// Film collections (lib/views/collections.ts decides everything): those with a film here, and
// one with every part, owned or missing.
import { operations } from '../../lib/api/operations';
import { services } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';
import { collectionDetail, collectionList } from '../../lib/views/collections';

export const listCollections = http(operations.listCollections, async ({ origin }) => ok(await collectionList(services, origin)));

export const getCollection = http(operations.getCollection, async ({ params, origin }) =>
  ok(await collectionDetail(services, params.collectionId, origin)),
);
