import { useEffect } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { SparkleIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { toast } from '@/lib/stores/toast';
import { useUpdates } from '../api/get-updates';
import { formatShortDate } from '@/lib/dates';
import { MESSAGES } from '../messages';
import styles from './WhatsNewPage.module.css';

/** The app updates list; each opens the update wizard. */
export function UpdatesSection() {
  const { data, isPending, isError } = useUpdates();

  useEffect(() => {
    if (isError) toast.danger(MESSAGES.updatesCheck);
  }, [isError]);

  if (isPending) return <Loader />;
  if (isError) return <EmptyState icon={<SparkleIcon size={32} />} title="App updates are not available" />;
  if (data.length === 0) {
    return (
      <EmptyState icon={<SparkleIcon size={32} />} title="No app updates yet">
        What changes in the app will be presented here.
      </EmptyState>
    );
  }
  return (
    <ul className={styles.list}>
      {data.map((u) => (
        <li key={u.id}>
          <Link
            to={`/new/update/${u.id}`}
            className={`${styles.item} ${u.read ? '' : styles.unread}`}
            data-unread={u.read ? 'false' : 'true'}
            data-testid={`update-${u.id}`}
          >
            <span className={`${styles.thumb} ${styles.thumbLarge}`} aria-hidden="true">
              {u.preview ? <img src={u.preview} alt="" loading="lazy" /> : <SparkleIcon size={24} />}
            </span>
            <span className={styles.text}>
              <span className={styles.itemTitle}>{u.name}</span>
              <span className={styles.release}>Release {u.release}</span>
              <span className={styles.meta}>{formatShortDate(u.date, '')}</span>
            </span>
            {!u.read && (
              <span className={styles.dot} data-testid="update-unread-dot">
                <span className="visually-hidden">Unread</span>
              </span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
