import { clear, del, set, values } from 'idb-keyval';
import { closableStore, OFFLINE_DATABASES } from './idb';
import { memoryQueueStore, type QueuedCommand, type QueueStore } from './queue';

/** The queue kept in IndexedDB, so actions taken offline survive a reload or a closed tab. */
export function indexedDbQueueStore(): QueueStore {
  if (typeof indexedDB === 'undefined') return memoryQueueStore();
  const store = closableStore(OFFLINE_DATABASES.queue);
  return {
    list: () => values<QueuedCommand>(store),
    put: (command) => set(command.id, command, store),
    remove: (id) => del(id, store),
    clear: () => clear(store),
  };
}
