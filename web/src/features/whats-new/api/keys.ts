/** Query keys of What's New; everything lives under `whatsNewKeys.all`. */
export const whatsNewKeys = {
  all: ['whats-new'] as const,
  notifications: () => [...whatsNewKeys.all, 'notifications'] as const,
  notification: (id: number) => [...whatsNewKeys.all, 'notification', id] as const,
  updates: () => [...whatsNewKeys.all, 'updates'] as const,
  update: (id: number) => [...whatsNewKeys.all, 'update', id] as const,
  messages: (roundId: number | null) => [...whatsNewKeys.all, 'messages', roundId] as const,
};
