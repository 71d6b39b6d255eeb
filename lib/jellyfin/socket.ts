// The door's WebSocket (/socket): the same connections and events as /ws, written as Jellyfin's
// apps read them: `{ MessageType, Data, MessageId }`. A profile's watch state changing
// (`userdata:changed`, through either door) is `UserDataChanged` to that profile's sockets; a
// scan's changes (`library:updated`) are `LibraryChanged` to every socket; nothing else is sent.
import { randomUUID } from 'node:crypto';
import type { ServerEvent } from '../api/schemas';
import { itemGuid, libraryGuid, profileGuid } from './guid';
import { userItemDataDto } from './items';

export interface DoorMessage {
  MessageType: string;
  Data?: unknown;
  MessageId?: string;
}

const message = (MessageType: string, Data?: unknown): DoorMessage => ({
  MessageType,
  ...(Data !== undefined ? { Data } : {}),
  MessageId: randomUUID().replaceAll('-', ''),
});

/** Sent once a socket is open: the apps then send KeepAlive at half this many seconds. */
export const forceKeepAlive = (): DoorMessage => message('ForceKeepAlive', 60);

const guids = (ids: readonly string[]) =>
  ids.flatMap((id) => {
    try {
      return [itemGuid(id)];
    } catch {
      return [];
    }
  });

/** The event as the door's sockets of `profileId` get it; undefined when they get nothing of it. */
export const doorMessageOf = (event: ServerEvent, profileId: string): DoorMessage | undefined => {
  if (event.type === 'userdata:changed') {
    if (event.profileId !== profileId) return undefined;
    const [guid] = guids([event.mediaId]);
    if (!guid) return undefined;
    return message('UserDataChanged', { UserId: profileGuid(profileId), UserDataList: [userItemDataDto(guid, event.userData)] });
  }
  if (event.type === 'library:updated') {
    return message('LibraryChanged', {
      ItemsAdded: guids(event.items.added),
      ItemsUpdated: guids([...event.items.updated, ...event.items.moved]),
      ItemsRemoved: guids(event.items.removed),
      FoldersAddedTo: [],
      FoldersRemovedFrom: [],
      CollectionFolders: [libraryGuid(event.libraryId)],
      IsEmpty: false,
    });
  }
  return undefined;
};

/** The reply to an app's frame: KeepAlive to KeepAlive; nothing to the rest (SessionsStart and the like). */
export const doorReplyTo = (frame: unknown): DoorMessage | undefined => {
  const type = (frame as { MessageType?: unknown } | null)?.MessageType;
  return type === 'KeepAlive' ? message('KeepAlive') : undefined;
};
