import { isApiError } from '../api/errors';

/** The actions that may be taken offline and sent later. */
export type QueuedKind =
  | 'create_folder'
  | 'rename'
  | 'move'
  | 'share'
  | 'save_to_mydocs'
  | 'notification_read'
  /** The device's own reports (purges, offline pins): sent without the user seeing them. */
  | 'library_purge'
  | 'library_pin';

/** Kinds the device sends on its own: never shown as pending, a refusal is dropped quietly. */
export const BACKGROUND_KINDS: ReadonlySet<QueuedKind> = new Set(['library_purge', 'library_pin']);

/**
 * One action kept on the device until the server has it. Its `id` is also the
 * `Idempotency-Key` of every attempt: the server answers a repeat with the first
 * result, so a retry after a lost answer never does the action twice.
 */
export interface QueuedCommand {
  id: string;
  /** Sending order: when it was queued (ms), ties broken by `seq`. */
  queuedAt: number;
  seq: number;
  kind: QueuedKind;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** What the user sees, e.g. "Create folder Reports". */
  label: string;
  /** Folder the action shows in (a new folder's parent); null at the root of My Docs. */
  folder?: string | null;
  /** `pending`: not sent yet; `conflict`: the server refused it (`message` says why). */
  state: 'pending' | 'conflict';
  message?: string;
  attempts: number;
}

export interface QueueStore {
  list(): Promise<QueuedCommand[]>;
  put(command: QueuedCommand): Promise<void>;
  remove(id: string): Promise<void>;
  clear(): Promise<void>;
}

/** What became of one attempt to send a command. */
export type Outcome = 'sent' | 'retry' | 'conflict' | 'signed-out';

/**
 * How an error of a send is handled: no answer (network) or a server-side failure is retried
 * later with the same key; 401 waits for the user to sign in again; any other refusal (the item
 * changed, is gone, or the action is no longer allowed) is a conflict shown to the user.
 */
export function outcomeOf(error: unknown): Exclude<Outcome, 'sent'> {
  if (!isApiError(error)) return 'retry';
  if (error.status === 0 || error.status >= 500 || error.status === 408 || error.status === 429) return 'retry';
  if (error.status === 401) return 'signed-out';
  return 'conflict';
}

export const CONFLICT_FALLBACK = 'The server refused this action.';

function conflictMessage(error: unknown): string {
  if (isApiError(error) && error.serverMessage) return error.serverMessage;
  return CONFLICT_FALLBACK;
}

export function byOrder(a: QueuedCommand, b: QueuedCommand): number {
  return a.queuedAt - b.queuedAt || a.seq - b.seq;
}

export interface FlushReport {
  sent: QueuedCommand[];
  conflicts: QueuedCommand[];
  /** Why sending stopped before the end of the queue, if it did. */
  stopped: 'retry' | 'signed-out' | null;
}

export interface QueueOptions {
  store: QueueStore;
  /** Sends one command with its own id as `Idempotency-Key`; throws an `ApiError` on failure. */
  send: (command: QueuedCommand) => Promise<unknown>;
  now?: () => number;
  newId?: () => string;
  /** Called after every change of the stored queue (to refresh what the screens show). */
  onChange?: (commands: QueuedCommand[]) => void;
}

export type NewCommand = Omit<QueuedCommand, 'id' | 'queuedAt' | 'seq' | 'state' | 'attempts' | 'message'> & {
  /** The key of an attempt already made (its answer was lost): kept for every retry. */
  id?: string;
};

/** The device's queue of actions waiting for the network, sent in order, one at a time. */
export function createQueue({
  store,
  send,
  now = Date.now,
  newId = () => crypto.randomUUID(),
  onChange,
}: QueueOptions) {
  let seq = 0;
  let running: Promise<FlushReport> | null = null;
  // An action queued while a flush runs is sent by one more pass right after it.
  let queuedMeanwhile = false;

  const changed = async () => {
    if (onChange) onChange((await store.list()).sort(byOrder));
  };

  async function enqueue(command: NewCommand): Promise<QueuedCommand> {
    const entry: QueuedCommand = {
      ...command,
      id: command.id ?? newId(),
      queuedAt: now(),
      seq: seq++,
      state: 'pending',
      attempts: 0,
    };
    await store.put(entry);
    if (running) queuedMeanwhile = true;
    await changed();
    return entry;
  }

  async function sendAll(): Promise<FlushReport> {
    const report: FlushReport = { sent: [], conflicts: [], stopped: null };
    const pending = (await store.list()).filter((c) => c.state === 'pending').sort(byOrder);
    for (const command of pending) {
      const attempt = { ...command, attempts: command.attempts + 1 };
      try {
        await send(attempt);
        await store.remove(command.id);
        report.sent.push(attempt);
      } catch (error) {
        const outcome = outcomeOf(error);
        if (outcome === 'conflict') {
          const refused: QueuedCommand = { ...attempt, state: 'conflict', message: conflictMessage(error) };
          await store.put(refused);
          report.conflicts.push(refused);
          // The next actions do not depend on a refused one (pending items cannot be acted on).
          continue;
        }
        // Later actions wait behind this one: they are sent in the order they were taken.
        await store.put(attempt);
        report.stopped = outcome;
        break;
      }
    }
    await changed();
    return report;
  }

  /** Sends what is pending; a flush already under way is joined, not doubled. */
  function flush(): Promise<FlushReport> {
    if (running) return running;
    queuedMeanwhile = false;
    running = sendAll().then(
      async (report) => {
        running = null;
        if (!queuedMeanwhile || report.stopped) return report;
        const more = await flush();
        return {
          sent: [...report.sent, ...more.sent],
          conflicts: [...report.conflicts, ...more.conflicts],
          stopped: more.stopped,
        };
      },
      (error: unknown) => {
        running = null;
        throw error;
      },
    );
    return running;
  }

  return {
    enqueue,
    flush,
    async list(): Promise<QueuedCommand[]> {
      return (await store.list()).sort(byOrder);
    },
    /** Forgets a refused action once the user has seen it. */
    async dismiss(id: string): Promise<void> {
      await store.remove(id);
      await changed();
    },
    async hasPending(): Promise<boolean> {
      return (await store.list()).some((c) => c.state === 'pending');
    },
  };
}

export type OfflineQueue = ReturnType<typeof createQueue>;

/** A queue store in memory (tests, and browsers without IndexedDB). */
export function memoryQueueStore(): QueueStore {
  const data = new Map<string, QueuedCommand>();
  return {
    list: () => Promise.resolve([...data.values()]),
    put: (command) => {
      data.set(command.id, structuredClone(command));
      return Promise.resolve();
    },
    remove: (id) => {
      data.delete(id);
      return Promise.resolve();
    },
    clear: () => {
      data.clear();
      return Promise.resolve();
    },
  };
}
