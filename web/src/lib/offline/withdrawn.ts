import type { LibraryWithdrawal } from '../realtime/dispatch';
import type { KeyValueStore } from '../storage';
import { isAppShellCache } from './clear';
import type { OfflineFile, OfflineItem } from './pins';

/** The addresses of a withdrawn document's files: the library file and every item (US item, copies). */
export function withdrawnFileUrls(withdrawal: Pick<LibraryWithdrawal, 'id' | 'items'>): string[] {
  return [
    `/api/library/${withdrawal.id}/file`,
    ...withdrawal.items.map((item) => `/api/documents/${encodeURIComponent(item)}/file`),
  ];
}

/** The path of an address (`/api/library/3/file?download=1` → `/api/library/3/file`), same-origin or absolute. */
export function pathOf(url: string): string {
  try {
    return new URL(url, 'http://device.invalid').pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/** What a set of withdrawals takes off the device. */
export interface WithdrawnSet {
  libraryIds: Set<number>;
  items: Set<string>;
  /** File paths (no query). */
  urls: Set<string>;
}

export function withdrawnSet(withdrawals: readonly Pick<LibraryWithdrawal, 'id' | 'items'>[]): WithdrawnSet {
  const set: WithdrawnSet = { libraryIds: new Set(), items: new Set(), urls: new Set() };
  for (const w of withdrawals) {
    set.libraryIds.add(w.id);
    for (const item of w.items) set.items.add(item);
    for (const url of withdrawnFileUrls(w)) set.urls.add(url);
  }
  return set;
}

/** A pinned file of a withdrawn document: by its address, or by its item id. */
export function isWithdrawnPin(item: OfflineItem, set: WithdrawnSet): item is OfflineFile {
  return item.kind === 'file' && (set.urls.has(pathOf(item.url)) || set.items.has(item.id));
}

/** Text of a cached answer that names a withdrawn document (a list holding it, its file address). */
export function mentionsWithdrawn(text: string, set: WithdrawnSet): boolean {
  for (const url of set.urls) if (text.includes(url)) return true;
  for (const item of set.items) if (text.includes(JSON.stringify(item))) return true;
  return false;
}

/**
 * Where the device keeps copies: the pins (IndexedDB, their bytes in Cache Storage) and the
 * service worker's caches of answers. Tests give their own.
 */
export interface PurgeTargets {
  pins: { all(): Promise<OfflineItem[]>; remove(id: string): Promise<void>; files(): Promise<Pick<Cache, 'delete'>> };
  caches?: {
    keys(): Promise<string[]>;
    open(name: string): Promise<{
      keys(): Promise<readonly Request[]>;
      match(request: Request): Promise<Response | undefined>;
      delete(request: Request): Promise<boolean>;
    }>;
  };
  /** Addresses purged for good: a copy of them never opens again. */
  purged: PurgedFiles;
}

export interface PurgeReport {
  /** Library ids and item ids of which the device held something (a pin or a cached answer). */
  library: number[];
  items: string[];
  /** Pins removed. */
  pins: string[];
  /** Cached answers removed (their addresses). */
  answers: string[];
}

/**
 * Takes every copy of the withdrawn documents off the device: their pinned files, the cached
 * answers of their file addresses, and every cached answer (lists, details) naming them. What
 * the device held of each is reported, for the server's purge record.
 */
export async function purgeWithdrawn(
  withdrawals: readonly LibraryWithdrawal[],
  targets: PurgeTargets,
): Promise<PurgeReport> {
  const report: PurgeReport = { library: [], items: [], pins: [], answers: [] };
  if (withdrawals.length === 0) return report;
  const set = withdrawnSet(withdrawals);
  const each = withdrawals.map((w) => ({ w, set: withdrawnSet([w]), heldItems: new Set<string>(), held: false }));
  // First: nothing of them opens from now on, even if a removal below fails half-way.
  targets.purged.add([...set.urls]);

  const files = await targets.pins.files();
  for (const item of await targets.pins.all()) {
    if (!isWithdrawnPin(item, set)) continue;
    await files.delete(item.url);
    await targets.pins.remove(item.id);
    report.pins.push(item.id);
    for (const one of each) {
      if (!isWithdrawnPin(item, one.set)) continue;
      one.held = true;
      const [subject] = pinSubjects([item]).items;
      if (subject !== undefined && one.set.items.has(subject)) one.heldItems.add(subject);
    }
  }

  if (targets.caches) {
    for (const name of await targets.caches.keys()) {
      if (isAppShellCache(name)) continue;
      const cache = await targets.caches.open(name);
      for (const request of await cache.keys()) {
        const path = pathOf(request.url);
        let text = '';
        if (!set.urls.has(path)) {
          const answer = await cache.match(request);
          if (!answer || !(answer.headers.get('content-type') ?? '').includes('json')) continue;
          text = await answer.text();
          if (!mentionsWithdrawn(text, set)) continue;
        }
        await cache.delete(request);
        report.answers.push(request.url);
        for (const one of each) {
          if (one.set.urls.has(path)) {
            one.held = true;
            const [subject] = pinSubjects([{ id: '', url: path }]).items;
            if (subject !== undefined) one.heldItems.add(subject);
          } else if (text && mentionsWithdrawn(text, one.set)) {
            one.held = true;
          }
        }
      }
    }
  }

  for (const one of each) {
    if (one.held) report.library.push(one.w.id);
    report.items.push(...one.heldItems);
  }
  return report;
}

/** The addresses purged from this device, kept across reloads (bounded: the newest stay). */
export interface PurgedFiles {
  add(urls: string[]): void;
  has(url: string): boolean;
}

export const PURGED_KEY = 'companion.purged-files';
const PURGED_LIMIT = 2_000;

export function purgedFiles(store: KeyValueStore): PurgedFiles {
  const read = (): string[] => {
    try {
      const value: unknown = JSON.parse(store.get(PURGED_KEY) ?? '[]');
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  };
  return {
    add(urls) {
      const all = [...new Set([...read(), ...urls])];
      store.set(PURGED_KEY, JSON.stringify(all.slice(-PURGED_LIMIT)));
    },
    has(url) {
      return read().includes(pathOf(url));
    },
  };
}

/** The body of `POST /library/purges` and `POST /library/pins`. */
export interface DeviceReport {
  device: string;
  library: number[];
  items: string[];
}

/**
 * Which documents a pinned (or unpinned) file stands for: a library file (`/api/library/{id}/file`)
 * by its library id, a document item by its id.
 */
export function pinSubjects(files: readonly Pick<OfflineFile, 'id' | 'url'>[]): { library: number[]; items: string[] } {
  const library = new Set<number>();
  const items = new Set<string>();
  for (const file of files) {
    const path = pathOf(file.url);
    const lib = /^\/api\/library\/(\d+)\/file$/.exec(path);
    if (lib?.[1]) {
      library.add(Number(lib[1]));
      continue;
    }
    const item = /^\/api\/documents\/([^/]+)\/file$/.exec(path);
    if (item?.[1]) items.add(decodeURIComponent(item[1]));
  }
  return { library: [...library], items: [...items] };
}

/** `ItemView.withdrawn`: why a copy kept in My Docs can no longer be opened. */
export interface ItemWithdrawal {
  state: 'withdrawn' | 'expired';
  reason: string;
  at: number;
  replacement: { id: number; title: string; url: string } | null;
}

export function itemWithdrawal(w: LibraryWithdrawal): ItemWithdrawal {
  return { state: w.state, reason: w.reason, at: w.at, replacement: w.replacement };
}

/**
 * A screen's data without the withdrawn documents: every entry of a list that is one of them (by
 * item id or file address) goes, except in the user's own My Docs (`markIn`), where a copy stays
 * marked withdrawn, without actions. Unchanged data keeps its identity.
 */
export function withoutWithdrawn<T>(value: T, withdrawals: readonly LibraryWithdrawal[], markIn = false): T {
  const set = withdrawnSet(withdrawals);
  const byItem = new Map<string, LibraryWithdrawal>();
  const byUrl = new Map<string, LibraryWithdrawal>();
  for (const w of withdrawals) {
    for (const item of w.items) byItem.set(item, w);
    for (const url of withdrawnFileUrls(w)) byUrl.set(url, w);
  }
  const matchOf = (entry: unknown): LibraryWithdrawal | null => {
    if (typeof entry !== 'object' || entry === null) return null;
    const { id, url } = entry as { id?: unknown; url?: unknown };
    if (typeof id === 'string' && set.items.has(id)) return byItem.get(id) ?? null;
    if (typeof url === 'string' && set.urls.has(pathOf(url))) return byUrl.get(pathOf(url)) ?? null;
    return null;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      let changed = false;
      const out: unknown[] = [];
      for (const entry of node) {
        const match = matchOf(entry);
        if (match && !markIn) {
          changed = true;
          continue;
        }
        if (match) {
          changed = true;
          out.push({ ...(entry as object), withdrawn: itemWithdrawal(match), actions: [] });
          continue;
        }
        const next = walk(entry);
        if (next !== entry) changed = true;
        out.push(next);
      }
      return changed ? out : node;
    }
    if (typeof node === 'object' && node !== null) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(node)) {
        const next = walk(entry);
        if (next !== entry) changed = true;
        out[key] = next;
      }
      return changed ? out : node;
    }
    return node;
  };
  return walk(value) as T;
}
