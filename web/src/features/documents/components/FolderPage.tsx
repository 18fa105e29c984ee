import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { PendingActions } from '@/components/offline/PendingActions';
import { PageFrame } from '@/components/page/PageFrame';
import { isApiError, safeServerMessage } from '@/lib/api/errors';
import { toast } from '@/lib/stores/toast';
import { useFolder } from '../api/get-folder';
import { MESSAGES } from '../logic/messages';
import { folderBackPath, folderPath, parseFolderRoute, tabPath } from '../logic/route';
import { canAdd } from '../logic/tabs';
import type { DocItem, DocType } from '../types';
import { AddFlow } from './AddFlow';
import { withdrawnRoute } from '@/components/documents/withdrawn';
import { DocumentActions } from './DocumentActions';
import { ItemList } from './ItemList';
import { useItemMenu } from './useItemMenu';

/** /documents/folder/{id}?type={my|shared|us}: without an id or a type, an error and back to /documents. */
export default function FolderPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const route = parseFolderRoute(id, params.get('type'));

  useEffect(() => {
    if (route.ok) return;
    toast.dangerOn('/documents', MESSAGES.folderError);
    void navigate('/documents', { replace: true });
  }, [route.ok, navigate]);

  if (!route.ok) return null;
  return <FolderScreen key={`${route.type}-${route.id}`} id={route.id} type={route.type} />;
}

function FolderScreen({ id, type }: { id: string; type: DocType }) {
  const navigate = useNavigate();
  const folder = useFolder(id, type);
  const menu = useItemMenu(folder.data?.list);
  const title = folder.data?.name || 'Folder';
  const error = folder.error;

  useEffect(() => {
    if (!error) return;
    const message = safeServerMessage(error) || MESSAGES.folderError;
    // A folder that is gone or not visible: back to the documents; a failed connection can be retried here.
    if (isApiError(error) && error.status >= 400 && error.status < 500) {
      toast.dangerOn(tabPath(type), message);
      void navigate(tabPath(type), { replace: true });
    } else {
      toast.danger(message);
    }
  }, [error, navigate, type]);

  const onTap = (item: DocItem) => {
    if (item.type === 'folder') void navigate(folderPath(item.id, type));
    else if (item.withdrawn) void navigate(...withdrawnRoute(item));
    else menu.openMenu(item);
  };
  // A withdrawn copy has no actions: its menu is the page that says why.
  const onMore = (item: DocItem) => (item.withdrawn ? void navigate(...withdrawnRoute(item)) : menu.openMenu(item));

  return (
    <PageFrame title={title} back={folderBackPath(folder.data?.back, type)} onRefresh={() => folder.refetch()}>
      <PendingActions filter={(command) => command.kind === 'create_folder' && command.folder === id} />
      <ItemList
        items={folder.data?.list}
        loading={folder.isPending}
        failed={folder.isError}
        onRetry={() => void folder.refetch()}
        onTap={onTap}
        onMore={onMore}
        emptyTitle="This folder is empty"
        emptyText={canAdd(type) ? 'Create a folder or upload a file with the Add button.' : undefined}
      />
      {canAdd(type) && <AddFlow parent={id} folderTitle={title} />}
      <DocumentActions item={menu.item} onClose={menu.closeMenu} parent={id} listType={type} />
    </PageFrame>
  );
}
