import { describe, expect, it } from 'vitest';
import {
  historyActionLabel,
  historyChange,
  historyEntries,
  localInputToIso,
  readsSummary,
  toLocalInput,
} from './history';

describe('history', () => {
  it('labels every action of the contract and any other readably', () => {
    expect(historyActionLabel('shared_externally')).toBe('Shared externally');
    expect(historyActionLabel('moved_to_mydocs')).toBe("Moved to 'My Docs'");
    expect(historyActionLabel('label_changed')).toBe('Label changed');
    expect(historyActionLabel('')).toBe('Changed');
  });

  it('shows from -> to when either side is known', () => {
    expect(historyChange({ from: 'Old', to: 'New' })).toBe('Old → New');
    expect(historyChange({ from: null, to: 'Q4' })).toBe('→ Q4');
    expect(historyChange({ from: 'Old folder' })).toBe('Old folder →');
    expect(historyChange({})).toBeNull();
    expect(historyChange({ from: ' ', to: '' })).toBeNull();
  });

  it('keeps the pages in the order the server gave them, newest first', () => {
    const e = (at: number, detail: string) => ({ at, actor: 'A', actor_email: 'a@x', action: 'opened', detail });
    expect(
      historyEntries([{ entries: [e(3, 'c'), e(2, 'b')] }, { entries: [e(1, 'a')] }]).map((x) => x.detail),
    ).toEqual(['c', 'b', 'a']);
    expect(historyEntries([])).toEqual([]);
  });

  it('tells how often the item was read', () => {
    expect(readsSummary({ opens: 0, downloads: 0, readers: 0 })).toBeNull();
    expect(readsSummary({ opens: 1, downloads: 0, readers: 1 })).toBe('Opened once');
    expect(readsSummary({ opens: 0, downloads: 2, readers: 1 })).toBe('Downloaded 2 times');
    expect(readsSummary({ opens: 12, downloads: 1, readers: 3 })).toBe('Opened 12 times, downloaded once by 3 people');
  });

  it('round-trips a datetime-local value to the end of that minute', () => {
    const ms = new Date(2026, 4, 17, 9, 5, 30).getTime();
    const input = toLocalInput(ms);
    expect(input).toBe('2026-05-17T09:05');
    expect(new Date(localInputToIso(input) ?? '').getTime()).toBe(new Date(2026, 4, 17, 9, 5, 59, 999).getTime());
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('nope')).toBeNull();
  });
});
