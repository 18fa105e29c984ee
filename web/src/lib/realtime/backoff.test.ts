import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';

describe('backoffDelay', () => {
  it('doubles from the base and stays in the upper half of each step', () => {
    const steps = [500, 1000, 2000, 4000, 8000];
    steps.forEach((step, attempt) => {
      expect(backoffDelay(attempt, DEFAULT_BACKOFF, () => 0)).toBe(step / 2);
      expect(backoffDelay(attempt, DEFAULT_BACKOFF, () => 0.999_999)).toBe(step);
    });
  });

  it('is capped at the maximum', () => {
    expect(backoffDelay(30, DEFAULT_BACKOFF, () => 0.999_999)).toBe(DEFAULT_BACKOFF.maxMs);
    expect(backoffDelay(1000, DEFAULT_BACKOFF, () => 0)).toBe(DEFAULT_BACKOFF.maxMs / 2);
  });

  it('spreads clients out (jitter)', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(4)));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(4000);
      expect(d).toBeLessThanOrEqual(8000);
    }
  });

  it('treats a negative attempt as the first', () => {
    expect(backoffDelay(-3, DEFAULT_BACKOFF, () => 0)).toBe(250);
  });
});
