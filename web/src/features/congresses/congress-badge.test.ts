import { describe, expect, it } from 'vitest';
import { congressBadge } from './congress-badge';

describe('congressBadge', () => {
  it("labels events 'Event' and everything else 'Congress'", () => {
    expect(congressBadge('event').label).toBe('Event');
    expect(congressBadge('congress').label).toBe('Congress');
    expect(congressBadge('symposium').label).toBe('Congress');
    expect(congressBadge(undefined).label).toBe('Congress');
    expect(congressBadge('event').tone).not.toBe(congressBadge('congress').tone);
  });
});
