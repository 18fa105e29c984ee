/** Sizes and the storage usage line of My Docs, worded as the server's quota message. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** `512 B`, `1.5 KB`, `1.9 GB`, `2 GB`: powers of 1024, one decimal at most. */
export function humanSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  // Rounded first, so 1023.96 KB reads 1 MB, not 1024 KB.
  while (unit < UNITS.length - 1 && Math.round(value * 10) / 10 >= 1024) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1);
  return `${text} ${UNITS[unit]}`;
}

/** "1.2 GB of 2 GB used". */
export function usageLabel(used: number, quota: number): string {
  return `${humanSize(used)} of ${humanSize(quota)} used`;
}

/** How full the quota is, 0 to 100 (a whole percent; a little use shows as at least 1). */
export function usagePercent(used: number, quota: number): number {
  if (quota <= 0) return 100;
  if (used <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round((used / quota) * 100)));
}

/** From this share on, the bar warns that the quota is nearly reached. */
export const NEARLY_FULL_PERCENT = 90;
