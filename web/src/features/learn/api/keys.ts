/** Query keys of the medical-education feature. */
export const learnKeys = {
  all: ['learn'] as const,
  list: (filters: Record<string, string>) => [...learnKeys.all, 'list', filters] as const,
  detail: (id: string) => [...learnKeys.all, 'detail', id] as const,
};
