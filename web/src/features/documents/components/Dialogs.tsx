import { useEffect, useId, useReducer, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Loader } from '@/components/Loader';
import { Modal } from '@/components/modal/Modal';
import { safeServerMessage } from '@/lib/api/errors';
import { isValidEmail } from '@/lib/email';
import { toast } from '@/lib/stores/toast';
import { useDeleteItem } from '../api/delete-item';
import { useFolderTree } from '../api/get-folder-tree';
import { useShareList } from '../api/get-share-list';
import { useMoveItem } from '../api/move-item';
import { useRenameItem } from '../api/rename-item';
import { useShareItem } from '../api/share-item';
import { menuActions, type ShareKind } from '../logic/actions';
import { baseNameSelection, displayName } from '../logic/file';
import { linkExpiry, MESSAGES } from '../logic/messages';
import { disabledDestinations, treeRows } from '../logic/move';
import {
  initialLinkFields,
  initialRecipient,
  LINK_MAX_DAYS,
  linkOptions,
  MAX_OPENS_LIMIT,
  recipientEmail,
  recipientReducer,
  recipientSearch,
  shareErrorToast,
  type LinkFields,
} from '../logic/share';
import { truncateMovedName } from '../logic/truncate';
import type { ShareResult } from '../api/share-item';
import type { DocItem } from '../types';
import styles from './Documents.module.css';
import { FolderIcon } from '@/components/icons';
import { Toggle } from '@/components/Toggle';
import { useDebounced } from './useDebounced';

interface DialogFrameProps {
  title: string;
  formId: string;
  submitLabel: string;
  submitDisabled?: boolean;
  danger?: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}

/** A 300 px dialog with a form and Cancel / submit buttons. */
function DialogFrame({
  title,
  formId,
  submitLabel,
  submitDisabled,
  danger,
  onClose,
  onSubmit,
  children,
}: DialogFrameProps) {
  return (
    <Modal
      open
      onClose={onClose}
      title={title}
      variant="dialog"
      footer={
        <div className={styles.footerButtons}>
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            disabled={submitDisabled}
          >
            {submitLabel}
          </button>
        </div>
      }
    >
      <form id={formId} className={styles.form} onSubmit={onSubmit}>
        {children}
      </form>
    </Modal>
  );
}

/** Focuses a field once the modal has focused itself, selecting `selection` of its text (all of it by default). */
function useFocusOnOpen<T extends HTMLElement>(selection?: (text: string) => [number, number]) {
  const ref = useRef<T>(null);
  const select = useRef(selection);
  useEffect(() => {
    const field = ref.current;
    field?.focus();
    if (!(field instanceof HTMLInputElement)) return;
    if (select.current) field.setSelectionRange(...select.current(field.value));
    else field.select();
  }, []);
  return ref;
}

export interface ItemDialogProps {
  item: DocItem;
  onClose: () => void;
}

export function RenameDialog({ item, onClose }: ItemDialogProps) {
  const formId = useId();
  const [name, setName] = useState(displayName(item));
  const rename = useRenameItem();
  const input = useFocusOnOpen<HTMLInputElement>((text) => baseNameSelection(text, item.type !== 'folder'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    // Spec section 5: a new name and the item's id are required, else the 'retrieving the folder' error.
    if (!trimmed || !item.id) {
      toast.danger(MESSAGES.folderError);
      return;
    }
    rename.mutate(
      { id: item.id, name: trimmed, previous: displayName(item) },
      {
        onSuccess: (result) => {
          if (!result.queued) toast.dark(MESSAGES.renamed(trimmed));
          onClose();
        },
        onError: (error) => toast.danger(safeServerMessage(error) || MESSAGES.generic),
      },
    );
  };

  return (
    <DialogFrame
      title="Rename"
      formId={formId}
      submitLabel="Rename"
      submitDisabled={rename.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <input
        ref={input}
        className="input"
        aria-label="New name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={200}
      />
    </DialogFrame>
  );
}

export function DeleteDialog({ item, onClose }: ItemDialogProps) {
  const formId = useId();
  const remove = useDeleteItem();
  const name = displayName(item);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!item.id || !name) {
      toast.danger(MESSAGES.folderError);
      return;
    }
    remove.mutate(item, {
      onSuccess: () => {
        toast.dark(item.type === 'folder' ? MESSAGES.folderDeleted(name) : MESSAGES.removedFromMyDocs(name));
        onClose();
      },
      onError: (error) => toast.danger(safeServerMessage(error) || MESSAGES.generic),
    });
  };

  return (
    <DialogFrame
      title="Delete"
      formId={formId}
      submitLabel="Delete"
      danger
      submitDisabled={remove.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <p className={styles.hint}>
        {item.type === 'folder'
          ? `The folder '${name}' and everything in it will be deleted.`
          : `'${name}' will be removed from My Docs.`}
      </p>
    </DialogFrame>
  );
}

export interface MoveDialogProps extends ItemDialogProps {
  /** Folder the item is listed in; null at the root. */
  parent: string | null;
}

export function MoveDialog({ item, parent, onClose }: MoveDialogProps) {
  const formId = useId();
  const tree = useFolderTree(true);
  const move = useMoveItem();
  const [destination, setDestination] = useState<string | null | undefined>(undefined);
  const rows = tree.data ? treeRows(tree.data, disabledDestinations(tree.data, item, parent)) : [];

  useEffect(() => {
    if (tree.isError) toast.danger(MESSAGES.documentsError);
  }, [tree.isError]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (destination === undefined) return;
    const target = rows.find((row) => row.id === destination)?.name ?? 'My docs';
    move.mutate(
      { item, destination, title: displayName(item) },
      {
        onSuccess: (result) => {
          if (!result.queued) toast.dark(MESSAGES.moved(displayName(item), target));
          onClose();
        },
        // Spec section 8: the server's message if present, otherwise the documents error.
        onError: (error) => toast.danger(safeServerMessage(error) || MESSAGES.documentsError),
      },
    );
  };

  return (
    <DialogFrame
      title="Move"
      formId={formId}
      submitLabel="Move"
      submitDisabled={destination === undefined || move.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <p className={styles.hint}>
        Move <strong title={displayName(item)}>{truncateMovedName(displayName(item))}</strong> to:
      </p>
      {tree.isPending ? (
        <Loader />
      ) : (
        <ul className={styles.tree} role="radiogroup" aria-label="Destination">
          {rows.map((row) => (
            <li key={row.id ?? 'root'}>
              <label
                className={`${styles.treeRow} ${row.disabled ? styles.treeRowDisabled : ''}`}
                style={{ paddingLeft: 8 + row.depth * 16 }}
              >
                <input
                  type="radio"
                  name="destination"
                  checked={destination === row.id}
                  disabled={row.disabled}
                  onChange={() => setDestination(row.id)}
                />
                <FolderIcon size={18} />
                <span className={styles.treeName} title={row.name}>
                  {row.name}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </DialogFrame>
  );
}

/** Whether the item offers an external share (its actions list it). */
function canShareExternally(item: DocItem): boolean {
  return menuActions(item).includes('external_share');
}

/** The confirmation of a share: the spec's text, and for an external share when its link expires. */
function sharedToast(result: ShareResult | null | undefined, typed: string): string {
  const text = MESSAGES.shared(result?.recipient || typed);
  return result && 'expires_at' in result ? `${text}. ${MESSAGES.linkExpires(linkExpiry(result.expires_at))}` : text;
}

export interface ShareDialogProps extends ItemDialogProps {
  kind: ShareKind;
}

export function ShareDialog({ item, kind, onClose }: ShareDialogProps) {
  const formId = useId();
  const [recipient, dispatch] = useReducer(recipientReducer, initialRecipient);
  const share = useShareItem();
  const input = useFocusOnOpen<HTMLInputElement>();
  const external = kind === 'external';
  // Colleagues are looked up for internal shares only; an external recipient is anyone.
  const search = useDebounced(external ? null : recipientSearch(recipient), 250);
  const lookup = useShareList(search);
  const email = recipientEmail(recipient);
  const [link, setLink] = useState<LinkFields>(initialLinkFields);

  useEffect(() => {
    if (lookup.isError) toast.danger(MESSAGES.recipientsError);
  }, [lookup.isError, lookup.errorUpdatedAt]);

  const send = (as: ShareKind) => {
    if (!email) return;
    // The link's options are those of this dialog's external share; from the internal dialog the defaults.
    let options;
    if (as === 'external' && external) {
      const checked = linkOptions(link);
      if (!checked.ok) {
        toast.danger(checked.message);
        return;
      }
      options = checked.options;
    }
    share.mutate(
      { kind: as, id: item.id, email, title: displayName(item), link: options },
      {
        onSuccess: (result) => {
          // Queued offline: the queue has said so.
          if (!result.queued) toast.dark(sharedToast(result.value, email));
          onClose();
        },
        onError: (error) => {
          const { message, duration } = shareErrorToast(error, as);
          toast.danger(message, duration);
        },
      },
    );
  };

  const matches = search !== null && lookup.data ? lookup.data : null;
  // The typed address is no colleague's: an internal share could only fail.
  const noColleague = !external && matches !== null && matches.length === 0 && search === recipientSearch(recipient);
  const externalAllowed = canShareExternally(item);

  return (
    <DialogFrame
      title={external ? 'Share externally' : 'Share'}
      formId={formId}
      submitLabel="Share"
      submitDisabled={share.isPending || noColleague}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        if (!noColleague) send(kind);
      }}
    >
      <p className={styles.hint}>{displayName(item)}</p>
      <label className="field">
        <span className="field-label">Recipient e-mail</span>
        <input
          ref={input}
          className="input"
          type="email"
          required
          autoComplete="off"
          value={recipient.selected ?? recipient.typed}
          onChange={(e) => dispatch({ type: 'typed', value: e.target.value })}
        />
      </label>
      {external && (
        <>
          <p className={styles.recipientsNote}>
            The recipient gets a link that expires. You see when it is opened and which pages are read.
          </p>
          <LinkOptionsFields fields={link} onChange={setLink} />
        </>
      )}
      {matches &&
        (matches.length > 0 ? (
          <ul className={styles.recipients} aria-label="Matching users">
            {matches.map((address) => (
              <li key={address}>
                <button
                  type="button"
                  className={styles.recipient}
                  aria-pressed={recipient.selected === address}
                  onClick={() => dispatch({ type: 'picked', email: address })}
                >
                  {address}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <div className={styles.noColleague} data-testid="no-colleague">
            <p className={styles.recipientsNote}>No colleague matches this e-mail.</p>
            {noColleague &&
              (externalAllowed && isValidEmail(email) ? (
                <button
                  type="button"
                  className="btn btn-outline btn-block"
                  disabled={share.isPending}
                  onClick={() => send('external')}
                >
                  Share externally with {email}
                </button>
              ) : externalAllowed ? (
                <p className={styles.recipientsNote}>Write the whole e-mail address to share externally.</p>
              ) : (
                <p className={styles.recipientsNote}>This document can be shared with colleagues only.</p>
              ))}
          </div>
        ))}
    </DialogFrame>
  );
}

/** How long an external link lasts, whether it allows download, and an optional limit of opens. */
function LinkOptionsFields({ fields, onChange }: { fields: LinkFields; onChange: (fields: LinkFields) => void }) {
  const set = (change: Partial<LinkFields>) => onChange({ ...fields, ...change });
  return (
    <fieldset className={styles.linkOptions}>
      <legend className="visually-hidden">Link options</legend>
      <label className={styles.linkOption}>
        <span className="field-label">Link lasts (days)</span>
        <input
          className={`input ${styles.linkNumber}`}
          type="number"
          inputMode="numeric"
          min={1}
          max={LINK_MAX_DAYS}
          value={fields.days}
          onChange={(e) => set({ days: e.target.value })}
        />
      </label>
      <Toggle label="Allow download" checked={fields.allowDownload} onChange={(on) => set({ allowDownload: on })} />
      <Toggle
        label="Limit the number of opens"
        checked={fields.limitOpens}
        onChange={(on) => set({ limitOpens: on })}
      />
      {fields.limitOpens && (
        <label className={styles.linkOption}>
          <span className="field-label">Opens allowed</span>
          <input
            className={`input ${styles.linkNumber}`}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_OPENS_LIMIT}
            value={fields.maxOpens}
            onChange={(e) => set({ maxOpens: e.target.value })}
          />
        </label>
      )}
    </fieldset>
  );
}
