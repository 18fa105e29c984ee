import type { BadgeTone } from '@/components/Badge';

const BADGES: Record<string, { label: string; tone: BadgeTone }> = {
  course: { label: 'Course', tone: 'orange' },
  online: { label: 'Online course', tone: 'green' },
  third: { label: '3rd-Party event', tone: 'cyan' },
  other: { label: 'Other', tone: 'grey' },
};

/** The category badge of a course card (spec 2.20); an unknown class shows as 'Other'. */
export function courseBadge(category: { class?: string | null } | null | undefined): {
  label: string;
  tone: BadgeTone;
} {
  return BADGES[category?.class ?? ''] ?? BADGES.other!;
}
