import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SendIcon } from '@/components/icons';
import { KeptOfflineLink } from '@/components/offline/KeptOfflineLink';
import { PendingActions } from '@/components/offline/PendingActions';
import { PageFrame } from '@/components/page/PageFrame';
import type { QueuedCommand } from '@/lib/offline';
import { countLabel } from '@/components/tabbar/count';
import { useBadges } from '@/lib/stores/badges';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { useDocuments } from '../api/get-documents';
import { documentsKeys } from '../api/keys';
import { MESSAGES } from '../logic/messages';
import { folderPath, SENT_PATH } from '../logic/route';
import { availableTabs, canAdd, resolveTab, TAB_LABELS } from '../logic/tabs';
import type { DocItem, DocType } from '../types';
import { AddFlow } from './AddFlow';
import { withdrawnRoute } from '@/components/documents/withdrawn';
import { DocumentActions } from './DocumentActions';
import styles from './Documents.module.css';
import { ItemList } from './ItemList';
import { StorageUsageLine } from './StorageUsageLine';
import { useItemMenu } from './useItemMenu';

const EMPTY: Record<DocType, { title: string; text: string }> = {
  my: { title: 'No documents yet', text: 'Create a folder or upload a PDF or XLS file with the Add button.' },
  shared: { title: 'Nothing shared with you yet', text: 'Documents your colleagues share with you appear here.' },
  us: { title: 'No US documents', text: 'Documents for the US market appear here.' },
};

/** Actions on documents waiting for the network (a new folder only in the folder it goes in). */
function pendingHere(command: QueuedCommand): boolean {
  if (command.kind === 'notification_read') return false;
  return command.kind !== 'create_folder' || command.folder === null || command.folder === undefined;
}

/** /documents: the tabs 'US' (with the US flag, first), 'My Docs' and 'Shared with me' (spec 2.16). */
export default function DocumentsPage() {
  const showUs = useSession((state) => state.user?.show_us === true);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tab = resolveTab(params.get('tab'), showUs);
  const tabs = availableTabs(showUs);
  const sharedNew = useBadges((s) => s.sharedNew);
  const documents = useDocuments(tab);
  const menu = useItemMenu(documents.data?.list);

  useEffect(() => {
    if (documents.isError) toast.danger(MESSAGES.documentsError);
  }, [documents.isError, documents.errorUpdatedAt]);

  const selectTab = (next: DocType) => {
    // Switching tab reloads that tab's list.
    void queryClient.invalidateQueries({ queryKey: documentsKeys.list(next) });
    setParams({ tab: next }, { replace: true });
  };

  const onTap = (item: DocItem) => {
    if (item.type === 'folder') void navigate(folderPath(item.id, tab));
    else if (item.withdrawn) void navigate(...withdrawnRoute(item));
    else menu.openMenu(item);
  };
  // A withdrawn copy has no actions: its menu is the page that says why.
  const onMore = (item: DocItem) => (item.withdrawn ? void navigate(...withdrawnRoute(item)) : menu.openMenu(item));

  return (
    <PageFrame title="Documents" info="documents" support onRefresh={() => documents.refetch()}>
      <div className={styles.tabs} role="tablist" aria-label="Document lists">
        {tabs.map((type) => (
          <button
            key={type}
            type="button"
            role="tab"
            id={`documents-tab-${type}`}
            aria-selected={type === tab}
            aria-controls="documents-panel"
            className={`${styles.tab} ${type === 'us' ? styles.tabUs : ''}`}
            onClick={() => selectTab(type)}
          >
            {TAB_LABELS[type]}
            {type === 'shared' && sharedNew > 0 && (
              <span className={styles.tabCount} data-testid="shared-tab-count">
                {countLabel(sharedNew)}
                <span className="visually-hidden"> unread</span>
              </span>
            )}
          </button>
        ))}
      </div>
      <div id="documents-panel" role="tabpanel" aria-labelledby={`documents-tab-${tab}`}>
        <KeptOfflineLink />
        {/* The documents sent outside the company with a tracked link, and who opened them. */}
        <Link to={SENT_PATH} className={styles.sentLink} data-testid="sent-link">
          <span className={styles.sentLabel}>
            <SendIcon size={16} /> Sent externally
          </span>
          <span aria-hidden="true">›</span>
        </Link>
        <PendingActions filter={pendingHere} />
        {tab === 'my' && <StorageUsageLine />}
        <ItemList
          items={documents.data?.list}
          loading={documents.isPending}
          failed={documents.isError}
          onRetry={() => void documents.refetch()}
          onTap={onTap}
          onMore={onMore}
          emptyTitle={EMPTY[tab].title}
          emptyText={EMPTY[tab].text}
        />
      </div>
      {canAdd(tab) && <AddFlow parent={null} folderTitle={TAB_LABELS.my} />}
      <DocumentActions item={menu.item} onClose={menu.closeMenu} parent={null} listType={tab} />
    </PageFrame>
  );
}
