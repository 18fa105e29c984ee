import { describe, expect, it } from 'vitest';
import { availableTabs, canAdd, initialTab, resolveTab } from './tabs';

describe('tabs', () => {
  it('shows US only with the flag, first, and starts there', () => {
    expect(availableTabs(false)).toEqual(['my', 'shared']);
    expect(availableTabs(true)).toEqual(['us', 'my', 'shared']);
    expect(initialTab(false)).toBe('my');
    expect(initialTab(true)).toBe('us');
  });

  it('resolves the ?tab= value against the tabs the user has', () => {
    expect(resolveTab(null, false)).toBe('my');
    expect(resolveTab(null, true)).toBe('us');
    expect(resolveTab('shared', false)).toBe('shared');
    expect(resolveTab('us', false)).toBe('my');
    expect(resolveTab('us', true)).toBe('us');
    expect(resolveTab('my', true)).toBe('my');
    expect(resolveTab('bogus', true)).toBe('us');
  });

  it('allows adding only in My Docs', () => {
    expect(canAdd('my')).toBe(true);
    expect(canAdd('shared')).toBe(false);
    expect(canAdd('us')).toBe(false);
  });
});
