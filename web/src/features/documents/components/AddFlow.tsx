import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Modal } from '@/components/modal/Modal';
import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { dismissErrors, toast } from '@/lib/stores/toast';
import { useCreateFolder } from '../api/create-folder';
import { useUploadFile } from '../api/upload-file';
import { MESSAGES } from '../logic/messages';
import { canUpload, prefillName, UPLOAD_ACCEPT } from '../logic/upload';
import menuStyles from '@/components/documents/ActionMenu.module.css';
import styles from './Documents.module.css';
import { NewFolderIcon, PlusIcon, UploadIcon } from '@/components/icons';

type Step = 'menu' | 'folder' | 'upload' | null;

export interface AddFlowProps {
  /** Folder the new item goes in; null for the root of My Docs. */
  parent: string | null;
  /** 'My Docs' at the root, else the folder's title. */
  folderTitle: string;
}

/** The add button, its menu 'Add to {folder title}' and the two modals it leads to. */
export function AddFlow({ parent, folderTitle }: AddFlowProps) {
  const [step, setStep] = useState<Step>(null);
  const close = () => setStep(null);
  return (
    <>
      <div className={styles.fabSlot}>
        <button type="button" className={styles.fab} onClick={() => setStep('menu')} aria-label="Add">
          <PlusIcon size={22} /> Add
        </button>
      </div>
      <Modal open={step === 'menu'} onClose={close} title={`Add to ${folderTitle}`}>
        <ul className={menuStyles.menu}>
          <li>
            <button type="button" className={menuStyles.menuItem} onClick={() => setStep('folder')}>
              <NewFolderIcon /> Create new folder
            </button>
          </li>
          <li>
            <button type="button" className={menuStyles.menuItem} onClick={() => setStep('upload')}>
              <UploadIcon /> Upload file
            </button>
          </li>
        </ul>
      </Modal>
      {step === 'folder' && <CreateFolderModal parent={parent} onClose={close} />}
      {step === 'upload' && <UploadFileModal parent={parent} onClose={close} />}
    </>
  );
}

function CreateFolderModal({ parent, onClose }: { parent: string | null; onClose: () => void }) {
  const formId = useId();
  const [name, setName] = useState('');
  const create = useCreateFolder();
  const input = useRef<HTMLInputElement>(null);
  // After the modal has focused itself.
  useEffect(() => input.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      toast.danger(MESSAGES.folderNameRequired);
      return;
    }
    create.mutate(
      { name: trimmed, parent },
      {
        onSuccess: (result) => {
          // Queued offline: the queue has said so. A confirmation also clears the earlier error.
          if (!result.queued) toast.dark(MESSAGES.folderCreated(trimmed));
          else dismissErrors();
          onClose();
        },
        onError: (error) => {
          toast.danger(safeServerMessage(error) || MESSAGES.generic);
          // A refusal (depth limit, bad name) closes the modal; a failed connection lets the user retry.
          if (hasStatus(error, 400)) onClose();
        },
      },
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="Create new folder"
      variant="dialog"
      footer={
        <div className={styles.footerButtons}>
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={create.isPending}>
            Create
          </button>
        </div>
      }
    >
      <form id={formId} className={styles.form} onSubmit={submit} noValidate>
        <input
          className="input"
          aria-label="Folder name"
          placeholder="Untitled folder"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={200}
          ref={input}
        />
      </form>
    </Modal>
  );
}

function UploadFileModal({ parent, onClose }: { parent: string | null; onClose: () => void }) {
  const formId = useId();
  const fileId = useId();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const upload = useUploadFile();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !canUpload(name, file)) {
      toast.danger(MESSAGES.uploadCheck);
      return;
    }
    setRefusal(null);
    upload.mutate(
      { name: name.trim(), file, fileName: file.name, parent },
      {
        onSuccess: (uploaded) => {
          toast.dark(MESSAGES.uploaded(uploaded.title?.trim() || uploaded.name || name.trim()));
          onClose();
        },
        onError: (error) => {
          // Spec section 8: a server-side upload failure is logged, not toasted (the toast is
          // for the client check). The server's reason (wrong type, too big) stays in the form.
          console.error('Upload refused', error);
          setRefusal(safeServerMessage(error) || MESSAGES.uploadCheck);
        },
      },
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="Upload new file"
      variant="dialog"
      footer={
        <div className={styles.footerButtons}>
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={!file || upload.isPending}>
            Upload
          </button>
        </div>
      }
    >
      <form id={formId} className={styles.form} onSubmit={submit} noValidate>
        <label className="field">
          <span className="field-label">Name</span>
          <input
            className="input"
            placeholder="Untitled file"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
          />
        </label>
        <div className={styles.fileField}>
          <span className="field-label">File (PDF or XLS)</span>
          <label className={styles.fileButton} htmlFor={fileId}>
            <UploadIcon size={20} />
            <span>{file ? file.name : 'Choose a file'}</span>
          </label>
          <input
            id={fileId}
            className={styles.fileInput}
            type="file"
            accept={UPLOAD_ACCEPT}
            aria-label="File"
            onChange={(e) => {
              const picked = e.target.files?.[0] ?? null;
              setFile(picked);
              setRefusal(null);
              setName((current) => prefillName(current, picked));
            }}
          />
        </div>
        {refusal && (
          <p className={styles.refusal} role="alert" data-testid="upload-refusal">
            {refusal}
          </p>
        )}
      </form>
    </Modal>
  );
}
