import { describe, expect, it } from 'vitest';
import { historyActionLabel, historyChange, localInputToIso, newestFirst, toLocalInput } from './history';

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

  it('sorts newest first, stable for equal times', () => {
    const e = (at: number, detail: string) => ({ at, actor: 'A', actor_email: 'a@x', action: 'opened', detail });
    expect(newestFirst([e(1, 'a'), e(3, 'b'), e(3, 'c'), e(2, 'd')]).map((x) => x.detail)).toEqual([
      'c',
      'b',
      'd',
      'a',
    ]);
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
