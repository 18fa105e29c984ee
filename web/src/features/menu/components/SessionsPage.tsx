import { DevicesIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { formatTimestamp } from '@/lib/dates';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { toast } from '@/lib/stores/toast';
import { useEndSession, useOwnSessions, type OwnSession } from '../api/sessions';
import { deviceName } from '../device-name';
import styles from './SessionsPage.module.css';

export const SESSION_ENDED = 'Signed out on that device';
export const END_FAILED = 'The session could not be ended';

function SessionRow({ session, onEnd, ending }: { session: OwnSession; onEnd: () => void; ending: boolean }) {
  const name = deviceName(session.device);
  return (
    <li className={styles.row}>
      <span className={styles.icon}>
        <DevicesIcon size={22} />
      </span>
      <span className={styles.text}>
        <span className={styles.name}>
          {name}
          {session.current && <span className={styles.current}>This device</span>}
        </span>
        <span className={styles.meta}>Signed in {formatTimestamp(session.signed_in_at)}</span>
        <span className={styles.meta}>Last used {formatTimestamp(session.last_used_at)}</span>
      </span>
      {!session.current && (
        <button type="button" className={styles.end} onClick={onEnd} disabled={ending} aria-label={`Sign out ${name}`}>
          Sign out
        </button>
      )}
    </li>
  );
}

/** The devices the user is signed in on; any other one can be signed out from here. */
export default function SessionsPage() {
  const { data, error, isPending, refetch } = useOwnSessions();
  const end = useEndSession();
  useFailureToast(error);

  const endOne = (id: string) => {
    end.mutate(id, {
      onSuccess: () => toast.dark(SESSION_ENDED),
      onError: (e) => {
        if (!hasStatus(e, 401)) toast.danger(safeServerMessage(e) || END_FAILED);
      },
    });
  };

  return (
    <PageFrame title="Signed-in devices" back="/menu" onRefresh={refetch}>
      <p className={styles.intro}>
        You are signed in on these devices. A device left unused for a while is signed out on its own.
      </p>
      {isPending ? (
        <Loader />
      ) : (
        <ul className={styles.list} aria-label="Signed-in devices">
          {(data ?? []).map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              ending={end.isPending && end.variables === session.id}
              onEnd={() => endOne(session.id)}
            />
          ))}
        </ul>
      )}
    </PageFrame>
  );
}
