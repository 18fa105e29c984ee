import { useId, useState } from 'react';
import { useLibraryList } from '../api/library';
import {
  ACCEPTED_FILES,
  fileProblem,
  formatBytes,
  hasErrors,
  UPLOAD_MAX_BYTES,
  validateDecision,
  validateWithdrawal,
  type Errors,
} from '../logic/forms';
import styles from './Console.module.css';
import { FieldError, Refusal } from './shared';

interface ActionFormProps {
  pending: boolean;
  refusal: string | null;
  onCancel: () => void;
}

/** A new version of a document: its file and a note. */
export function VersionForm({
  pending,
  refusal,
  onCancel,
  onSubmit,
}: ActionFormProps & { onSubmit: (file: File, note: string) => void }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  return (
    <form
      className={styles.card}
      aria-label="New version"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const problem = fileProblem(file);
        setError(problem);
        if (!problem && file) onSubmit(file, note);
      }}
    >
      <h2 className={styles.cardTitle}>New version</h2>
      <div className={styles.form}>
        <label className="field">
          <span className="field-label">File (PDF or XLS, up to {formatBytes(UPLOAD_MAX_BYTES)})</span>
          <input
            className="input"
            type="file"
            accept={ACCEPTED_FILES}
            aria-invalid={Boolean(error)}
            aria-describedby={`${id}-file`}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
          <FieldError id={`${id}-file`} message={error ?? undefined} />
        </label>
        <label className="field">
          <span className="field-label">What changed (note)</span>
          <input className="input" value={note} onChange={(event) => setNote(event.target.value)} />
        </label>
      </div>
      <div className={styles.actions}>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Uploading…' : 'Upload version'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
      <Refusal message={refusal} />
    </form>
  );
}

/** Approve or reject the version in review, with a comment. */
export function DecisionForm({
  kind,
  pending,
  refusal,
  onCancel,
  onSubmit,
}: ActionFormProps & { kind: 'approve' | 'reject'; onSubmit: (comment: string) => void }) {
  const id = useId();
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Errors<'comment'>>({});
  const title = kind === 'approve' ? 'Approve this version' : 'Reject this version';

  return (
    <form
      className={styles.card}
      aria-label={title}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = validateDecision(kind, comment);
        setErrors(found);
        if (!hasErrors(found)) onSubmit(comment);
      }}
    >
      <h2 className={styles.cardTitle}>{title}</h2>
      <label className="field">
        <span className="field-label">{kind === 'approve' ? 'Comment (optional)' : 'What must change'}</span>
        <textarea
          className="input"
          rows={3}
          value={comment}
          aria-invalid={Boolean(errors.comment)}
          aria-describedby={`${id}-comment`}
          onChange={(event) => setComment(event.target.value)}
        />
        <FieldError id={`${id}-comment`} message={errors.comment} />
      </label>
      <div className={styles.actions}>
        <button type="submit" className={`btn ${kind === 'approve' ? 'btn-primary' : 'btn-danger'}`} disabled={pending}>
          {kind === 'approve' ? 'Approve' : 'Reject'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
      <Refusal message={refusal} />
    </form>
  );
}

/** Withdraw with a reason and, optionally, a released document that replaces this one. */
export function WithdrawForm({
  self,
  withReplacement,
  pending,
  refusal,
  onCancel,
  onSubmit,
}: ActionFormProps & {
  self: number;
  /** Library documents may name a replacement; news may not. */
  withReplacement: boolean;
  onSubmit: (reason: string, replacement: number | null) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [replacement, setReplacement] = useState<number | null>(null);
  const [errors, setErrors] = useState<Errors<'reason' | 'replacement'>>({});
  const released = useLibraryList({ status: 'released' }, withReplacement);
  const choices = (released.data ?? []).filter((doc) => doc.id !== self);

  return (
    <form
      className={styles.card}
      aria-label="Withdraw"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = validateWithdrawal(reason, replacement, self);
        setErrors(found);
        if (!hasErrors(found)) onSubmit(reason, replacement);
      }}
    >
      <h2 className={styles.cardTitle}>Withdraw</h2>
      <p className={styles.hint}>
        It disappears from every list, device, offline copy and external link within seconds. This cannot be undone.
      </p>
      <div className={styles.form}>
        <label className="field">
          <span className="field-label">Reason</span>
          <textarea
            className="input"
            rows={2}
            value={reason}
            aria-invalid={Boolean(errors.reason)}
            aria-describedby={`${id}-reason`}
            onChange={(event) => setReason(event.target.value)}
          />
          <FieldError id={`${id}-reason`} message={errors.reason} />
        </label>
        {withReplacement && (
          <label className="field">
            <span className="field-label">Replaced by (optional)</span>
            <select
              className="input"
              value={replacement ?? ''}
              aria-describedby={`${id}-replacement`}
              onChange={(event) => setReplacement(event.target.value ? Number(event.target.value) : null)}
            >
              <option value="">No replacement</option>
              {choices.map((doc) => (
                <option key={doc.id} value={doc.id}>
                  {doc.title} (#{doc.id})
                </option>
              ))}
            </select>
            <FieldError id={`${id}-replacement`} message={errors.replacement} />
          </label>
        )}
      </div>
      <div className={styles.actions}>
        <button type="submit" className="btn btn-danger" disabled={pending}>
          Withdraw
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
      <Refusal message={refusal} />
    </form>
  );
}
