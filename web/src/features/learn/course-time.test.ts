import { describe, expect, it } from 'vitest';
import { canRegister, firstUpcomingIndex, hasEnded, openDays } from './course-time';

const day = (date_value: string, ended: boolean) => ({ date_value, ended });

describe('courses in time', () => {
  it('takes the server’s word for what has ended', () => {
    expect(hasEnded({ ended: true })).toBe(true);
    expect(hasEnded({ ended: false })).toBe(false);
    // An older server that does not say: nothing is taken for ended.
    expect(hasEnded({})).toBe(false);
  });

  it('offers registration only for a course open to it with a day to come', () => {
    const days = [day('2026-03-19', true), day('2026-03-20', false)];
    expect(canRegister({ show_register: true, ended: false, days })).toBe(true);
    expect(canRegister({ show_register: false, ended: false, days })).toBe(false);
    expect(canRegister({ show_register: true, ended: true, days })).toBe(false);
    expect(canRegister({ show_register: true, ended: false, days: [day('2026-03-19', true)] })).toBe(false);
    expect(canRegister({ show_register: true, ended: false, days: [] })).toBe(false);
  });

  it('opens a list on the first course still to come', () => {
    expect(firstUpcomingIndex([{ ended: true }, { ended: true }, { ended: false }, { ended: false }])).toBe(2);
    expect(firstUpcomingIndex([{ ended: false }])).toBe(0);
    expect(firstUpcomingIndex([{ ended: true }])).toBeNull();
    expect(firstUpcomingIndex([])).toBeNull();
  });

  it('lists the days still open', () => {
    expect(openDays([day('2026-03-19', true), day('2026-03-20', false)])).toEqual(['2026-03-20']);
  });
});
