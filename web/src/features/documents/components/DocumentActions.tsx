import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Loader } from '@/components/Loader';
import { hasStatus, isApiError, safeServerMessage } from '@/lib/api/errors';
import { offlinePins } from '@/lib/offline';
import { toast } from '@/lib/stores/toast';
import { fetchFile, saveBlob } from '../api/get-file';
import { reloadDocuments } from '../api/keys';
import { useMoveToMyDocs } from '../api/move-to-mydocs';
import { useSaveToMyDocs } from '../api/save-to-mydocs';
import { shareKind, type MenuAction, type ShareKind } from '../logic/actions';
import { displayName, downloadName, opensInViewer } from '../logic/file';
import { MESSAGES } from '../logic/messages';
import { historyPath, sharesPath } from '../logic/route';
import { withdrawalOfError, withdrawnItemPath } from '@/components/documents/withdrawn';
import type { DocItem, DocType } from '../types';
import { ActionMenu } from './ActionMenu';
import { DeleteDialog, MoveDialog, RenameDialog, ShareDialog } from './Dialogs';
import styles from './Documents.module.css';
import { PdfViewer } from './PdfViewer';

type OpenDialog =
  // The move dialog keeps the folder the item was in when it opened: the menu that opened it
  // (a search result's) may be gone by then.
  | { kind: 'rename' | 'move' | 'delete'; item: DocItem; parent: string | null }
  | { kind: 'share'; item: DocItem; share: ShareKind };

export interface DocumentActionsProps {
  /** The item whose action menu is open, or null. */
  item: DocItem | null;
  onClose: () => void;
  /** Folder the items are listed in (null at a tab's root); the move dialog disables it. */
  parent: string | null;
  /** The list shown (My Docs, Shared with me, US); lets folders be kept offline. */
  listType?: DocType;
}

/**
 * The file from the server, or the copy kept on the device when the network is gone. Online the
 * server is asked first: opening is recorded there, and access may have changed.
 */
async function fileOrOfflineCopy(url: string, download: boolean): Promise<{ blob: Blob; contentType: string }> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    const kept = await offlinePins().read(url);
    if (kept) return kept;
  }
  try {
    return await fetchFile(url, download);
  } catch (error) {
    if (!isApiError(error) || error.status !== 0) throw error;
    const kept = await offlinePins().read(url);
    if (!kept) throw error;
    return kept;
  }
}

/** The action menu of an item and everything it leads to: dialogs, viewer, downloads. */
export function DocumentActions({ item, onClose, parent, listType }: DocumentActionsProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [viewer, setViewer] = useState<{ item: DocItem; blob: Blob } | null>(null);
  const [busy, setBusy] = useState(false);
  const save = useSaveToMyDocs();
  const moveToMyDocs = useMoveToMyDocs();

  const withFile = async (target: DocItem, download: boolean, consume: (blob: Blob, contentType: string) => void) => {
    if (!target.url) {
      toast.danger(MESSAGES.cannotOpen);
      return;
    }
    setBusy(true);
    try {
      const file = await fileOrOfflineCopy(target.url, download);
      consume(file.blob, file.contentType);
      // Opening marks the item read on the server: the unread dot goes.
      void reloadDocuments(queryClient);
    } catch (error) {
      const withdrawal = withdrawalOfError(error);
      if (withdrawal) {
        // Withdrawn or expired since the list was shown: the lists drop it, the page says why.
        void reloadDocuments(queryClient);
        void navigate(withdrawnItemPath(target.id), { state: { withdrawal, title: displayName(target) } });
      } else if (!hasStatus(error, 401)) toast.danger(MESSAGES.fileError);
    } finally {
      setBusy(false);
    }
  };

  const open = (target: DocItem) =>
    withFile(target, false, (blob, contentType) => {
      if (opensInViewer(contentType, target.name)) setViewer({ item: target, blob });
      else saveBlob(blob, downloadName(target));
    });

  const download = (target: DocItem) => withFile(target, true, (blob) => saveBlob(blob, downloadName(target)));

  const onAction = (action: MenuAction, target: DocItem) => {
    onClose();
    switch (action) {
      case 'open':
        void open(target);
        return;
      case 'download':
        void download(target);
        return;
      case 'rename':
      case 'move':
      case 'delete':
        setDialog({ kind: action, item: target, parent });
        return;
      case 'internal_share':
      case 'external_share':
        setDialog({ kind: 'share', item: target, share: shareKind(target, action) });
        return;
      case 'save_to_mydocs':
        save.mutate(
          { id: target.id, title: displayName(target) },
          {
            // Queued offline: the queue has said so.
            onSuccess: (result) => {
              if (!result.queued) toast.dark(MESSAGES.savedToMyDocs);
            },
            onError: (error) => toast.danger(safeServerMessage(error) || MESSAGES.generic),
          },
        );
        return;
      case 'move_to_mydocs':
        moveToMyDocs.mutate(target, {
          onError: (error) => toast.danger(safeServerMessage(error) || MESSAGES.generic),
        });
        return;
      case 'history':
        void navigate(historyPath(target.id));
        return;
      case 'shares':
        // The title goes along: the shares list does not carry it.
        void navigate(sharesPath(target.id), { state: { title: displayName(target) } });
        return;
    }
  };

  const closeDialog = () => setDialog(null);

  return (
    <>
      <ActionMenu item={item} onClose={onClose} onAction={onAction} listType={listType} />
      {dialog?.kind === 'rename' && <RenameDialog item={dialog.item} onClose={closeDialog} />}
      {dialog?.kind === 'delete' && <DeleteDialog item={dialog.item} onClose={closeDialog} />}
      {dialog?.kind === 'move' && <MoveDialog item={dialog.item} parent={dialog.parent} onClose={closeDialog} />}
      {dialog?.kind === 'share' && <ShareDialog item={dialog.item} kind={dialog.share} onClose={closeDialog} />}
      {viewer && (
        <PdfViewer
          title={displayName(viewer.item)}
          blob={viewer.blob}
          onClose={() => setViewer(null)}
          onDownload={() => void download(viewer.item)}
        />
      )}
      {(busy || save.isPending || moveToMyDocs.isPending) && (
        <div className={styles.busy}>
          <Loader label="Working" />
        </div>
      )}
    </>
  );
}
