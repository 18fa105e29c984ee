import { describe, expect, it } from 'vitest';
import { countLabel } from './count';

describe('countLabel', () => {
  it('shows the count, at most 99+', () => {
    expect(countLabel(1)).toBe('1');
    expect(countLabel(99)).toBe('99');
    expect(countLabel(100)).toBe('99+');
  });
});
