import { describe, expect, it } from 'vitest';
import { newestFirst } from './order';

describe('newestFirst', () => {
  it('puts the latest publication first, then the higher id', () => {
    const list = [
      { id: 1, date: '2026-01-10T09:00:00Z' },
      { id: 3, date: '2026-11-24T09:00:00Z' },
      { id: 2, date: '2026-11-24T09:00:00Z' },
      { id: 4, date: 'not a date' },
      { id: 5, date: '2026-11-24T10:00:00+02:00' },
    ];
    expect(newestFirst(list).map((n) => n.id)).toEqual([3, 2, 5, 1, 4]);
    // The list given is left as it was.
    expect(list[0]?.id).toBe(1);
  });
});
