import type { ActivityEvent } from './types';

/** 'Open in Maps' is offered for an activity with an address, except lunch events (spec 2.19). */
export function showsMapsLink(event: Pick<ActivityEvent, 'type' | 'googlemaps'>): boolean {
  return Boolean(event.googlemaps) && (event.type ?? '').toLowerCase() !== 'lunch';
}

/** The link of a video: its address, or the player address of its code. */
export function videoUrl(video: { url?: string | null; code?: string | null }): string | null {
  if (video.url) return video.url;
  if (video.code) return `https://video.example.com/watch/${encodeURIComponent(video.code)}`;
  return null;
}

/** 'meridian_booth' -> 'Meridian booth': the booth's field carries the company's short name. */
export function boothOf(
  details: Record<string, unknown> | null | undefined,
): { title: string; booth: { gallery?: string[]; description?: string } } | null {
  if (!details) return null;
  const entry = Object.entries(details).find(
    ([key, value]) => key.endsWith('_booth') && value && typeof value === 'object',
  );
  if (!entry) return null;
  const company = entry[0].slice(0, -'_booth'.length).replace(/_/g, ' ');
  const title = company ? `${company.charAt(0).toUpperCase()}${company.slice(1)} booth` : 'Booth';
  return { title, booth: entry[1] as { gallery?: string[]; description?: string } };
}
