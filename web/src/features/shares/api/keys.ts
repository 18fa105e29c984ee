/**
 * Query keys of the shares screens, all under `sharesKeys.all` (the realtime dispatcher refreshes
 * that prefix on `share_opened` and `share_engagement`: see LIVE_QUERY_KEYS.shares).
 */
export const sharesKeys = {
  all: ['shares'] as const,
  item: (id: string) => [...sharesKeys.all, 'item', id] as const,
  sent: () => [...sharesKeys.all, 'sent'] as const,
};
