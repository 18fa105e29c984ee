import { useRouteError } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { InfoIcon } from '@/components/icons';
import styles from './RouteError.module.css';

/** Shown when a screen fails to render or its code cannot be loaded. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className={styles.wrap}>
      <EmptyState icon={<InfoIcon size={32} />} title="An error occurred while getting all the informations">
        <p>Check your connection and try again.</p>
      </EmptyState>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
