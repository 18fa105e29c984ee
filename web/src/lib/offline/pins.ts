import { del, set, values } from 'idb-keyval';
import { api } from '../api/client';
import { isApiError } from '../api/errors';
import { fetchBinary } from '../files';
import { closableStore, OFFLINE_DATABASES } from './idb';

/** The Cache Storage cache holding the bytes of the files kept offline. */
export const FILES_CACHE = 'companion-files';

/** A file kept on the device; its bytes are in `FILES_CACHE` under `url`. */
export interface OfflineFile {
  kind: 'file';
  id: string;
  title: string;
  name: string;
  /** Same-origin address of the file (`/api/documents/{id}/file`). */
  url: string;
  size: number;
  contentType: string;
  savedAt: number;
  /** The pinned folder that brought it, null when pinned on its own. */
  via: string | null;
  /**
   * A read-only library file (catalogue, programme or product document), the same for everyone
   * who sees the screen: kept until removed or sign-out, not checked as a document item.
   */
  library?: boolean;
}

/** A folder kept on the device: its files are kept, and follow its contents when online. */
export interface OfflineFolder {
  kind: 'folder';
  id: string;
  title: string;
  /** The list it belongs to, as `GET /folders/{id}?type=` wants it. */
  type: 'my' | 'shared' | 'us';
  savedAt: number;
}

export type OfflineItem = OfflineFile | OfflineFolder;

/** Where pins are kept; tests give their own. */
export interface PinStorage {
  all(): Promise<OfflineItem[]>;
  put(item: OfflineItem): Promise<void>;
  remove(id: string): Promise<void>;
  files(): Promise<Cache>;
}

export function browserPinStorage(): PinStorage {
  const store = closableStore(OFFLINE_DATABASES.pins);
  return {
    all: () => values<OfflineItem>(store),
    put: (item) => set(item.id, item, store),
    remove: (id) => del(id, store),
    files: () => caches.open(FILES_CACHE),
  };
}

/** What pinning needs from the server; tests give their own. */
export interface PinServer {
  /** The file's bytes (opening it, as the viewer does). */
  download(url: string): Promise<{ blob: Blob; contentType: string }>;
  /** Resolves with the item's current name when the user still sees it; rejects with an ApiError. */
  check(id: string): Promise<{ name: string }>;
  /** The files directly in a folder; rejects with an ApiError. */
  folderFiles(folder: OfflineFolder): Promise<PinnableFile[]>;
}

export interface PinnableFile {
  id: string;
  title: string;
  name: string;
  url: string;
  library?: boolean;
}

interface HistoryAnswer {
  item: { name: string };
}
interface FolderAnswer {
  list: { id: string; type: string; title: string; name: string; url?: string | null }[];
}

/**
 * The server side of pins, without side effects where possible: an item is checked through its
 * history (`GET /documents/{id}/history`, 403/404 once the user no longer sees it), not by opening it.
 */
export const apiPinServer: PinServer = {
  download: (url) => fetchBinary(url),
  async check(id) {
    const history = await api.get<HistoryAnswer>(`/documents/${encodeURIComponent(id)}/history`);
    return { name: history.item.name };
  },
  async folderFiles(folder) {
    const contents = await api.get<FolderAnswer>(`/folders/${encodeURIComponent(folder.id)}`, { type: folder.type });
    return contents.list
      .filter((item) => item.type === 'file' && item.url)
      .map((item) => ({ id: item.id, title: item.title || item.name, name: item.name, url: item.url ?? '' }));
  },
};

/** Access is gone for good (unshared, US access ended, deleted): the copy must go too. */
function accessGone(error: unknown): boolean {
  return isApiError(error) && (error.status === 403 || error.status === 404 || error.status === 410);
}

export interface PinsOptions {
  storage: PinStorage;
  server: PinServer;
  now?: () => number;
  onChange?: (items: OfflineItem[]) => void;
  /** Files the user kept on (true) or took off (false) the device, for the server's record. */
  onPinned?: (files: OfflineFile[], pinned: boolean) => void;
  /** A withdrawn document's address: its copy was purged and never opens or comes back. */
  isPurged?: (url: string) => boolean;
}

export interface RevalidateReport {
  removed: string[];
  renamed: string[];
  added: string[];
}

/** Documents and folders kept offline: pin, unpin, read, and keep in step with the server. */
export function createPins({
  storage,
  server,
  now = Date.now,
  onChange,
  onPinned,
  isPurged = () => false,
}: PinsOptions) {
  const changed = async () => {
    if (onChange) onChange(await storage.all());
  };

  async function storeFile(file: PinnableFile, via: string | null): Promise<OfflineFile> {
    if (isPurged(file.url)) throw new Error('This document was withdrawn.');
    const { blob, contentType } = await server.download(file.url);
    const cache = await storage.files();
    await cache.put(
      file.url,
      new Response(blob, {
        headers: { 'Content-Type': contentType || 'application/octet-stream', 'Content-Length': String(blob.size) },
      }),
    );
    const item: OfflineFile = {
      kind: 'file',
      id: file.id,
      title: file.title,
      name: file.name,
      url: file.url,
      size: blob.size,
      contentType,
      savedAt: now(),
      via,
      ...(file.library ? { library: true } : {}),
    };
    await storage.put(item);
    return item;
  }

  async function dropFile(item: OfflineFile): Promise<void> {
    const cache = await storage.files();
    await cache.delete(item.url);
    await storage.remove(item.id);
  }

  async function dropFolder(folder: OfflineFolder, items: OfflineItem[]): Promise<void> {
    for (const item of items) if (item.kind === 'file' && item.via === folder.id) await dropFile(item);
    await storage.remove(folder.id);
  }

  /** Brings a pinned folder's files onto the device and lets go of those no longer in it. */
  async function syncFolder(folder: OfflineFolder, report: RevalidateReport): Promise<void> {
    const files = await server.folderFiles(folder);
    const items = await storage.all();
    const kept = new Map(items.filter((i): i is OfflineFile => i.kind === 'file').map((i) => [i.id, i]));
    const inFolder = new Set(files.map((f) => f.id));
    const added: OfflineFile[] = [];
    for (const file of files) {
      if (kept.has(file.id) || isPurged(file.url)) continue;
      added.push(await storeFile(file, folder.id));
      report.added.push(file.id);
    }
    if (added.length > 0) onPinned?.(added, true);
    for (const item of kept.values()) {
      if (item.via === folder.id && !inFolder.has(item.id)) {
        await dropFile(item);
        report.removed.push(item.id);
      }
    }
  }

  return {
    async list(): Promise<OfflineItem[]> {
      return storage.all();
    },

    async pinFile(file: PinnableFile): Promise<OfflineFile> {
      const item = await storeFile(file, null);
      await changed();
      onPinned?.([item], true);
      return item;
    },

    async pinFolder(folder: Omit<OfflineFolder, 'kind' | 'savedAt'>): Promise<OfflineFolder> {
      const item: OfflineFolder = { ...folder, kind: 'folder', savedAt: now() };
      await storage.put(item);
      try {
        await syncFolder(item, { removed: [], renamed: [], added: [] });
      } finally {
        await changed();
      }
      return item;
    },

    async unpin(id: string): Promise<void> {
      const items = await storage.all();
      const item = items.find((i) => i.id === id);
      if (item?.kind === 'file') await dropFile(item);
      if (item?.kind === 'folder') await dropFolder(item, items);
      await changed();
      const dropped = items.filter(
        (i): i is OfflineFile => i.kind === 'file' && (i.id === id || (item?.kind === 'folder' && i.via === id)),
      );
      if (dropped.length > 0) onPinned?.(dropped, false);
    },

    async unpinAll(): Promise<void> {
      const items = await storage.all();
      for (const item of items) {
        if (item.kind === 'file') await dropFile(item);
        else await storage.remove(item.id);
      }
      await changed();
      const dropped = items.filter((i): i is OfflineFile => i.kind === 'file');
      if (dropped.length > 0) onPinned?.(dropped, false);
    },

    /** The stored bytes of a file kept offline, or null. */
    async read(url: string): Promise<{ blob: Blob; contentType: string } | null> {
      if (isPurged(url)) return null;
      const cache = await storage.files();
      const response = await cache.match(url);
      if (!response) return null;
      return { blob: await response.blob(), contentType: response.headers.get('content-type') ?? '' };
    },

    /**
     * Brings every pin in line with the server (on each connection and live change): what the
     * user may no longer see is removed from the device, renamed items take their new name,
     * pinned folders take their new files. A network failure leaves everything as it is.
     */
    async revalidate(): Promise<RevalidateReport> {
      const report: RevalidateReport = { removed: [], renamed: [], added: [] };
      const items = await storage.all();
      for (const folder of items.filter((i): i is OfflineFolder => i.kind === 'folder')) {
        try {
          await syncFolder(folder, report);
        } catch (error) {
          if (!accessGone(error)) continue;
          await dropFolder(folder, await storage.all());
          report.removed.push(folder.id);
        }
      }
      for (const item of (await storage.all()).filter((i): i is OfflineFile => i.kind === 'file' && !i.library)) {
        try {
          const { name } = await server.check(item.id);
          if (name && name !== item.name) {
            await storage.put({ ...item, name, title: item.title === item.name ? name : item.title });
            report.renamed.push(item.id);
          }
        } catch (error) {
          if (!accessGone(error)) continue;
          await dropFile(item);
          report.removed.push(item.id);
        }
      }
      await changed();
      return report;
    },
  };
}

export type Pins = ReturnType<typeof createPins>;

/** Bytes kept offline, from the pins' own sizes. */
export function usedBytes(items: OfflineItem[]): number {
  return items.reduce((sum, item) => sum + (item.kind === 'file' ? item.size : 0), 0);
}
