/** Query keys of the congresses feature. */
export const congressKeys = {
  all: ['congresses'] as const,
  list: (year: string | null) => [...congressKeys.all, 'list', year ?? ''] as const,
  detail: (id: string) => [...congressKeys.all, 'detail', id] as const,
  activity: (id: string) => [...congressKeys.all, 'activity', id] as const,
};
