import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { toast } from '@/lib/stores/toast';
import { CONSOLE_QUERY_PREFIX } from '../api/keys';
import { refusalMessage } from '../logic/errors';

/**
 * Runs one console action: while it runs `pending` is true; a refusal is kept (shown next to the
 * form) with the server's message as it is; on success every console query refreshes.
 */
export function useConsoleAction() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const run = useCallback(
    async <T>(action: () => Promise<T>, fallback: string, done?: string): Promise<T | null> => {
      setPending(true);
      setRefusal(null);
      try {
        const result = await action();
        await queryClient.invalidateQueries({ queryKey: CONSOLE_QUERY_PREFIX });
        if (done) toast.dark(done);
        return result;
      } catch (error) {
        setRefusal(refusalMessage(error, fallback));
        return null;
      } finally {
        setPending(false);
      }
    },
    [queryClient],
  );

  return { run, pending, refusal, clearRefusal: () => setRefusal(null) };
}
