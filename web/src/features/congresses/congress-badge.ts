import type { BadgeTone } from '@/components/Badge';

/** The badge of a congress row: 'Event' for type event, otherwise 'Congress' (spec 2.18). */
export function congressBadge(type: string | null | undefined): { label: 'Event' | 'Congress'; tone: BadgeTone } {
  return type === 'event' ? { label: 'Event', tone: 'purple' } : { label: 'Congress', tone: 'blue' };
}
