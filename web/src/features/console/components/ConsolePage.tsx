import { NavLink, useLocation, useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { ShieldIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';
import { useSession } from '@/lib/session/store';
import { consoleRights } from '../logic/status';
import styles from './Console.module.css';
import { LibraryDocumentView } from './LibraryDocumentView';
import { LibraryListPanel } from './LibraryListPanel';
import { NewsEditorView } from './NewsEditor';
import { NewsListPanel } from './NewsListPanel';

/** A positive whole id of the address, or `null`. */
function idOf(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * /console…: the publishers' and approvers' console (auditors read it): the library's documents
 * and the news, each through draft, review, release, expiry and withdrawal.
 */
export default function ConsolePage() {
  const { pathname } = useLocation();
  const params = useParams();
  const role: string | undefined = useSession((state) => state.user?.role);
  const rights = consoleRights(role);
  const news = /^\/console\/news(\/|$)/i.test(pathname);
  const id = idOf(params.id);

  let body;
  if (news) {
    if (params.id === 'new') body = <NewsEditorView id={null} rights={rights} />;
    else if (id !== null) body = <NewsEditorView id={id} rights={rights} />;
    else body = <NewsListPanel rights={rights} />;
  } else if (id !== null) {
    body = <LibraryDocumentView id={id} rights={rights} />;
  } else {
    body = <LibraryListPanel rights={rights} />;
  }

  return (
    <PageFrame title="Content console" back="/menu">
      {!rights.view ? (
        <EmptyState
          icon={<ShieldIcon size={32} />}
          title="Only publishers, approvers and auditors can use the console"
        />
      ) : (
        <div className={styles.workspace}>
          <nav className={styles.tabs} aria-label="Console">
            <NavLink to="/console" className={() => (news ? styles.tab : styles.tabActive)}>
              Library
            </NavLink>
            <NavLink to="/console/news" className={() => (news ? styles.tabActive : styles.tab)}>
              News
            </NavLink>
          </nav>
          {body}
        </div>
      )}
    </PageFrame>
  );
}
