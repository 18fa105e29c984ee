import { NavLink, useLocation } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { ShieldIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';
import { useSession } from '@/lib/session/store';
import { ActivityPanel } from './ActivityPanel';
import styles from './Audit.module.css';
import { ItemsPanel } from './ItemsPanel';

/** /audit and /audit/activity: the auditor's workspace. */
export default function AuditPage() {
  const location = useLocation();
  const auditor = useSession((state) => state.user?.role === 'auditor');
  const activity = location.pathname.replace(/\/+$/, '').endsWith('/activity');

  return (
    <PageFrame title="Audit" back="/menu">
      {!auditor ? (
        <EmptyState icon={<ShieldIcon size={32} />} title="Only auditors can use the audit workspace" />
      ) : (
        <div className={styles.workspace}>
          <nav className={styles.tabs} aria-label="Audit">
            <NavLink to="/audit" end className={({ isActive }) => (isActive ? styles.tabActive : styles.tab)}>
              Documents and folders
            </NavLink>
            <NavLink to="/audit/activity" className={({ isActive }) => (isActive ? styles.tabActive : styles.tab)}>
              Activity
            </NavLink>
          </nav>
          {activity ? <ActivityPanel /> : <ItemsPanel />}
        </div>
      )}
    </PageFrame>
  );
}
