import { describe, expect, it } from 'vitest';
import { allOpen, canToggleAll, toggleAll, toggleAllLabel, toggleOne } from './accordion';

const groups = [
  { key: 'a', count: 2 },
  { key: 'b', count: 0 },
  { key: 'c', count: 1 },
];

describe('accordion', () => {
  it('disables Expand all when no group has children', () => {
    expect(canToggleAll(groups)).toBe(true);
    expect(canToggleAll([{ key: 'x', count: 0 }])).toBe(false);
    expect(canToggleAll([])).toBe(false);
  });
  it('expands every group with children, then closes all', () => {
    const none = new Set<string>();
    expect(toggleAllLabel(none, groups)).toBe('Expand all');
    const all = toggleAll(none, groups);
    expect([...all].sort()).toEqual(['a', 'c']);
    expect(allOpen(all, groups)).toBe(true);
    expect(toggleAllLabel(all, groups)).toBe('Close all');
    expect(toggleAll(all, groups).size).toBe(0);
  });
  it('toggles one group on and off', () => {
    const one = toggleOne(new Set(), 'a');
    expect(one.has('a')).toBe(true);
    expect(toggleOne(one, 'a').has('a')).toBe(false);
    expect(toggleAllLabel(one, groups)).toBe('Expand all');
  });
});
