import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { CONFLICT_FALLBACK, createQueue, memoryQueueStore, outcomeOf, type QueuedCommand } from './queue';

function setup(send: (command: QueuedCommand) => Promise<unknown>) {
  let clock = 1_000;
  let ids = 0;
  const store = memoryQueueStore();
  const changes: QueuedCommand[][] = [];
  const queue = createQueue({
    store,
    send,
    now: () => clock,
    newId: () => `key-${++ids}`,
    onChange: (commands) => changes.push(commands),
  });
  const tick = () => (clock += 10);
  return { queue, store, changes, tick };
}

const folder = (name: string) =>
  ({
    kind: 'create_folder',
    method: 'POST',
    path: '/folders',
    body: { name },
    label: `Create folder ${name}`,
    folder: null,
  }) as const;

describe('offline queue', () => {
  it('sends queued actions in the order they were taken, each with its own key', async () => {
    const sent: string[] = [];
    const { queue, tick } = setup((command) => {
      sent.push(`${command.label}:${command.id}`);
      return Promise.resolve({});
    });
    await queue.enqueue(folder('A'));
    tick();
    await queue.enqueue(folder('B'));
    // Same millisecond: the order of queueing still decides.
    await queue.enqueue(folder('C'));
    const report = await queue.flush();
    expect(sent).toEqual(['Create folder A:key-1', 'Create folder B:key-2', 'Create folder C:key-3']);
    expect(report.sent).toHaveLength(3);
    expect(await queue.list()).toEqual([]);
  });

  it('keeps an action and those after it when the network fails, and retries with the same key', async () => {
    const attempts: string[] = [];
    let online = false;
    const { queue } = setup((command) => {
      attempts.push(command.id);
      return online ? Promise.resolve({}) : Promise.reject(new ApiError(0, null));
    });
    await queue.enqueue(folder('A'));
    await queue.enqueue(folder('B'));
    const first = await queue.flush();
    expect(first.stopped).toBe('retry');
    // B is not tried before A has gone through.
    expect(attempts).toEqual(['key-1']);
    const kept = await queue.list();
    expect(kept.map((c) => [c.id, c.state, c.attempts])).toEqual([
      ['key-1', 'pending', 1],
      ['key-2', 'pending', 0],
    ]);

    online = true;
    const second = await queue.flush();
    expect(second.stopped).toBeNull();
    // The retry of A carries A's first key: the server answers it with the first result.
    expect(attempts).toEqual(['key-1', 'key-1', 'key-2']);
    expect(await queue.list()).toEqual([]);
  });

  it('retries server failures and rate limits later, and waits for a new sign-in on 401', async () => {
    expect(outcomeOf(new ApiError(503, 'down'))).toBe('retry');
    expect(outcomeOf(new ApiError(429, 'slow down'))).toBe('retry');
    expect(outcomeOf(new ApiError(408, null))).toBe('retry');
    expect(outcomeOf(new TypeError('Failed to fetch'))).toBe('retry');
    expect(outcomeOf(new ApiError(401, null))).toBe('signed-out');
    expect(outcomeOf(new ApiError(409, 'changed'))).toBe('conflict');
    expect(outcomeOf(new ApiError(403, 'not allowed'))).toBe('conflict');

    const { queue } = setup(() => Promise.reject(new ApiError(401, null)));
    await queue.enqueue(folder('A'));
    const report = await queue.flush();
    expect(report.stopped).toBe('signed-out');
    expect((await queue.list())[0]?.state).toBe('pending');
  });

  it('marks a refused action as a conflict with the server message, never drops it, and goes on', async () => {
    const { queue } = setup((command) =>
      command.label.endsWith('A')
        ? Promise.reject(new ApiError(403, 'You can no longer share this document'))
        : command.label.endsWith('B')
          ? Promise.reject(new ApiError(409, null))
          : Promise.resolve({}),
    );
    await queue.enqueue(folder('A'));
    await queue.enqueue(folder('B'));
    await queue.enqueue(folder('C'));
    const report = await queue.flush();
    expect(report.sent.map((c) => c.label)).toEqual(['Create folder C']);
    expect(report.conflicts.map((c) => [c.label, c.message])).toEqual([
      ['Create folder A', 'You can no longer share this document'],
      ['Create folder B', CONFLICT_FALLBACK],
    ]);
    const left = await queue.list();
    expect(left.map((c) => c.state)).toEqual(['conflict', 'conflict']);
    // A conflict is not sent again...
    const again = await queue.flush();
    expect(again.sent).toEqual([]);
    expect(again.conflicts).toEqual([]);
    // ...and stays until the user dismisses it.
    await queue.dismiss(left[0]!.id);
    expect((await queue.list()).map((c) => c.label)).toEqual(['Create folder B']);
  });

  it('keeps the key of an attempt whose answer was lost', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    const { queue } = setup(send);
    const queued = await queue.enqueue({ ...folder('A'), id: 'first-attempt' });
    expect(queued.id).toBe('first-attempt');
    await queue.flush();
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ id: 'first-attempt', attempts: 1 }));
  });

  it('joins a flush already under way instead of sending twice, and sends what was queued meanwhile', async () => {
    let release: () => void = () => undefined;
    const sent: string[] = [];
    const { queue } = setup(
      (command) =>
        new Promise((resolve) => {
          sent.push(command.id);
          if (command.id === 'key-1') release = () => resolve({});
          else resolve({});
        }),
    );
    await queue.enqueue(folder('A'));
    const first = queue.flush();
    const second = queue.flush();
    expect(second).toBe(first);
    await vi.waitFor(() => expect(sent).toEqual(['key-1']));
    await queue.enqueue(folder('B'));
    release();
    const report = await first;
    expect(sent).toEqual(['key-1', 'key-2']);
    expect(report.sent.map((c) => c.id)).toEqual(['key-1', 'key-2']);
  });

  it('tells the screens about every change', async () => {
    const { queue, changes } = setup(() => Promise.resolve({}));
    await queue.enqueue(folder('A'));
    await queue.flush();
    expect(changes.map((c) => c.length)).toEqual([1, 0]);
  });
});
