import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import type { SurveyMessage } from '../types';
import { whatsNewKeys } from './keys';

/** Statuses of a message for its reader. */
export const MESSAGE_STATUS = { new: 0, seen: 1, answered: 2 } as const;

/** Longest reply the server takes (characters). */
export const MAX_REPLY_LENGTH = 2000;

/** `GET /messages` (with the round when one is asked for): the user's messages, newest first. */
export async function getMessages(roundId: number | null): Promise<SurveyMessage[]> {
  const response = await api.get<components['schemas']['MessagesResponse']>(
    '/messages',
    roundId === null ? {} : { roundId },
  );
  return response.data;
}

export const messagesQuery = (roundId: number | null) =>
  queryOptions({ queryKey: whatsNewKeys.messages(roundId), queryFn: () => getMessages(roundId), staleTime: 0 });

export function useMessages(roundId: number | null) {
  return useQuery(messagesQuery(roundId));
}

/** `POST /messages`: marks a message seen (the default status) when it is opened. */
export function useMarkMessageSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (messageId: number) => api.post('/messages', { messageId, status: MESSAGE_STATUS.seen }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...whatsNewKeys.all, 'messages'] }),
  });
}

/** `POST /messages/reply`: answers a message's question. */
export function useReplyToMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, reply }: { messageId: number; reply: string }) =>
      api.post('/messages/reply', { messageId, reply }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...whatsNewKeys.all, 'messages'] }),
  });
}
