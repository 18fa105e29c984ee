/** Query keys of the training feature. */
export const trainingKeys = {
  all: ['training'] as const,
  list: (year: string | null) => [...trainingKeys.all, 'list', year ?? ''] as const,
  detail: (id: string) => [...trainingKeys.all, 'detail', id] as const,
};
