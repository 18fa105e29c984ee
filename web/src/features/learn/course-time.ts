/**
 * Courses in time. The server says which courses and days have ended (`ended`, judged at midnight
 * where the course takes place, by the server's clock): the app trusts it rather than the
 * phone's clock and its time zone.
 */

interface Dated {
  ended?: boolean | null;
}

/** Whether a course or a day has taken place. */
export function hasEnded(item: Dated): boolean {
  return item.ended === true;
}

/** Whether the course can still be registered to in the app: open to registration, a day to come. */
export function canRegister(course: Dated & { show_register?: boolean | null; days: Dated[] }): boolean {
  return course.show_register === true && !hasEnded(course) && course.days.some((d) => !hasEnded(d));
}

/**
 * Where a list opens: the first course still to come (the list is in date order), or null when
 * every course of the list has ended (or the list is empty).
 */
export function firstUpcomingIndex(list: Dated[]): number | null {
  const index = list.findIndex((c) => !hasEnded(c));
  return index === -1 ? null : index;
}

/** The days still open to registration, in the course's order. */
export function openDays<T extends Dated & { date_value: string }>(days: T[]): string[] {
  return days.filter((d) => !hasEnded(d)).map((d) => d.date_value);
}
