import { describe, expect, it } from 'vitest';
import { courseBadge } from './course-badge';

describe('courseBadge', () => {
  it('maps each category class to its label and colour', () => {
    expect(courseBadge({ class: 'course' })).toEqual({ label: 'Course', tone: 'orange' });
    expect(courseBadge({ class: 'online' })).toEqual({ label: 'Online course', tone: 'green' });
    expect(courseBadge({ class: 'third' })).toEqual({ label: '3rd-Party event', tone: 'cyan' });
    expect(courseBadge({ class: 'other' })).toEqual({ label: 'Other', tone: 'grey' });
  });
  it("shows anything else as 'Other'", () => {
    expect(courseBadge({ class: 'webinar' })).toEqual({ label: 'Other', tone: 'grey' });
    expect(courseBadge(null)).toEqual({ label: 'Other', tone: 'grey' });
  });
});
