import { describe, expect, it } from 'vitest';
import { courseLocation, learnContactHref, registrationPlatform, speakersToggle, visibleSpeakers } from './course-view';

describe('speakers', () => {
  it('shows the first three, then all', () => {
    const five = [1, 2, 3, 4, 5];
    expect(visibleSpeakers(five, false)).toEqual([1, 2, 3]);
    expect(visibleSpeakers(five, true)).toEqual(five);
    expect(speakersToggle(5, false)).toBe('View all');
    expect(speakersToggle(5, true)).toBe('View less');
    expect(speakersToggle(3, false)).toBeNull();
  });
});

describe('course info', () => {
  it("defaults the location to 'Online'", () => {
    expect(courseLocation(undefined)).toBe('Online');
    expect(courseLocation('')).toBe('Online');
    expect(courseLocation('Milan')).toBe('Milan');
  });
  it('names the registration platform', () => {
    expect(registrationPlatform('https://events.example.org/knee-forum-2026')).toBe('events.example.org');
    expect(registrationPlatform('https://www.evenium.net/ng/person/event/x')).toBe('Evenium');
    expect(registrationPlatform('not a link')).toBe('not a link');
  });
  it('writes the mail to the learn team', () => {
    expect(learnContactHref({ email: 'education@meridian-ortho.example', subject: 'Info' }, 'Knee & Hip')).toBe(
      'mailto:education@meridian-ortho.example?subject=Info%3A%20Knee%20%26%20Hip',
    );
  });
});
