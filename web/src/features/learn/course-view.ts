/** Speakers shown before 'View all' (spec 9). */
export const SPEAKERS_SHOWN = 3;

/** The speakers to show: the first three unless expanded. */
export function visibleSpeakers<T>(speakers: T[], expanded: boolean): T[] {
  return expanded ? speakers : speakers.slice(0, SPEAKERS_SHOWN);
}

/** 'View all' / 'View less', only when there are more than three speakers. */
export function speakersToggle(count: number, expanded: boolean): 'View all' | 'View less' | null {
  if (count <= SPEAKERS_SHOWN) return null;
  return expanded ? 'View less' : 'View all';
}

/** Where a course takes place; online courses have no location (spec 2.20). */
export function courseLocation(location: string | null | undefined): string {
  return location?.trim() || 'Online';
}

/** The external registration platform's name for 'Registration open on {platform}'. */
export function registrationPlatform(link: string): string {
  try {
    const host = new URL(link).hostname.replace(/^www\./, '');
    return host.includes('evenium') ? 'Evenium' : host;
  } catch {
    return link;
  }
}

/** 'Ask for more information': a mail to the learn team about this course. */
export function learnContactHref(contact: { email: string; subject?: string }, courseTitle: string): string {
  const subject = contact.subject ? `${contact.subject}: ${courseTitle}` : courseTitle;
  return `mailto:${contact.email}?subject=${encodeURIComponent(subject)}`;
}
