import type { Query } from '../logic/filters';

/** Query keys of the auditor's workspace. */
export const auditKeys = {
  all: ['audit'] as const,
  items: (query: Query) => [...auditKeys.all, 'items', query] as const,
  activity: (query: Query) => [...auditKeys.all, 'activity', query] as const,
  access: (id: string, at: string) => [...auditKeys.all, 'access', id, at] as const,
};
