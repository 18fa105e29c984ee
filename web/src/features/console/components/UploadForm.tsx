import { useId, useState } from 'react';
import { createLibraryDocument } from '../api/library';
import {
  ACCEPTED_FILES,
  EMPTY_UPLOAD,
  formatBytes,
  hasErrors,
  uploadBody,
  UPLOAD_MAX_BYTES,
  validateUpload,
  type Errors,
  type UploadField,
  type UploadForm as Form,
} from '../logic/forms';
import { LABELS } from '../logic/status';
import type { LabelKey, LifecycleAnswer } from '../types';
import styles from './Console.module.css';
import { FieldError, Refusal } from './shared';
import { useConsoleAction } from './useConsoleAction';

/** A new library document: its first version as a draft. */
export function UploadForm({ onDone, onCancel }: { onDone: (answer: LifecycleAnswer) => void; onCancel: () => void }) {
  const id = useId();
  const [form, setForm] = useState<Form>(EMPTY_UPLOAD);
  const [errors, setErrors] = useState<Errors<UploadField>>({});
  const { run, pending, refusal } = useConsoleAction();

  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) =>
      setForm((f) => ({ ...f, [key]: value }));

  const toggleLabel = (label: LabelKey, on: boolean) =>
    set('labels')(on ? [...form.labels, label] : form.labels.filter((l) => l !== label));

  const submit = async () => {
    const found = validateUpload(form);
    setErrors(found);
    if (hasErrors(found)) return;
    const answer = await run(() => createLibraryDocument(uploadBody(form)), 'The upload failed', 'Draft created');
    if (answer) onDone(answer);
  };

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.cardTitle}>
        New document
      </h2>
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label className={`field ${styles.full}`}>
          <span className="field-label">File (PDF or XLS, up to {formatBytes(UPLOAD_MAX_BYTES)})</span>
          <input
            className="input"
            type="file"
            accept={ACCEPTED_FILES}
            aria-invalid={Boolean(errors.file)}
            aria-describedby={`${id}-file`}
            onChange={(event) => set('file')(event.target.files?.[0] ?? null)}
          />
          <FieldError id={`${id}-file`} message={errors.file} />
        </label>
        <label className="field">
          <span className="field-label">Title</span>
          <input
            className="input"
            value={form.title}
            aria-invalid={Boolean(errors.title)}
            aria-describedby={`${id}-titleError`}
            onChange={(event) => set('title')(event.target.value)}
          />
          <FieldError id={`${id}-titleError`} message={errors.title} />
        </label>
        <label className="field">
          <span className="field-label">Audience</span>
          <select
            className="input"
            value={form.audience}
            onChange={(event) => set('audience')(event.target.value === 'us' ? 'us' : 'all')}
          >
            <option value="all">Everyone</option>
            <option value="us">US only (the US documents)</option>
          </select>
        </label>
        <fieldset className={`${styles.checks} ${styles.full}`}>
          <legend>Labels</legend>
          {LABELS.map((label) => (
            <label key={label.value} className={styles.check}>
              <input
                type="checkbox"
                checked={form.labels.includes(label.value)}
                onChange={(event) => toggleLabel(label.value, event.target.checked)}
              />
              {label.label}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span className="field-label">Release at (empty: on approval)</span>
          <input
            className="input"
            type="datetime-local"
            value={form.releaseAt}
            aria-invalid={Boolean(errors.releaseAt)}
            aria-describedby={`${id}-release`}
            onChange={(event) => set('releaseAt')(event.target.value)}
          />
          <FieldError id={`${id}-release`} message={errors.releaseAt} />
        </label>
        <label className="field">
          <span className="field-label">Expires at (optional)</span>
          <input
            className="input"
            type="datetime-local"
            value={form.expiresAt}
            aria-invalid={Boolean(errors.expiresAt)}
            aria-describedby={`${id}-expires`}
            onChange={(event) => set('expiresAt')(event.target.value)}
          />
          <FieldError id={`${id}-expires`} message={errors.expiresAt} />
        </label>
        <label className="field">
          <span className="field-label">Category (optional)</span>
          <input className="input" value={form.category} onChange={(event) => set('category')(event.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Products (ids, comma-separated)</span>
          <input className="input" value={form.products} onChange={(event) => set('products')(event.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Programmes (ids, comma-separated)</span>
          <input
            className="input"
            value={form.programmes}
            onChange={(event) => set('programmes')(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">Note for the approver (optional)</span>
          <input className="input" value={form.note} onChange={(event) => set('note')(event.target.value)} />
        </label>
        <div className={`${styles.full} ${styles.actions}`}>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? 'Uploading…' : 'Upload as draft'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
            Cancel
          </button>
        </div>
        <div className={styles.full}>
          <Refusal message={refusal} />
        </div>
      </form>
    </section>
  );
}
