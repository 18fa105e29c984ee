import { useId, useState } from 'react';
import { hasErrors, validateMetadata, type Errors, type MetadataForm } from '../logic/forms';
import { LABELS } from '../logic/status';
import type { LabelKey } from '../types';
import styles from './Console.module.css';
import { FieldError, Refusal } from './shared';

/** The details of a library document: title, audience, labels, schedule, products, programmes. */
export function DetailsForm({
  initial,
  pending,
  refusal,
  onCancel,
  onSubmit,
}: {
  initial: MetadataForm;
  pending: boolean;
  refusal: string | null;
  onCancel: () => void;
  onSubmit: (form: MetadataForm) => void;
}) {
  const id = useId();
  const [form, setForm] = useState<MetadataForm>(initial);
  const [errors, setErrors] = useState<Errors<'title' | 'releaseAt' | 'expiresAt'>>({});
  const set =
    (key: 'title' | 'releaseAt' | 'expiresAt' | 'products' | 'programmes') => (event: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [key]: event.target.value }));
  const toggleLabel = (label: LabelKey, on: boolean) =>
    setForm((f) => ({ ...f, labels: on ? [...f.labels, label] : f.labels.filter((l) => l !== label) }));

  return (
    <form
      className={styles.card}
      aria-label="Edit details"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = validateMetadata(form);
        setErrors(found);
        if (!hasErrors(found)) onSubmit(form);
      }}
    >
      <h2 className={styles.cardTitle}>Edit details</h2>
      <div className={styles.form}>
        <label className="field">
          <span className="field-label">Title</span>
          <input
            className="input"
            value={form.title}
            aria-invalid={Boolean(errors.title)}
            aria-describedby={`${id}-title`}
            onChange={set('title')}
          />
          <FieldError id={`${id}-title`} message={errors.title} />
        </label>
        <label className="field">
          <span className="field-label">Audience</span>
          <select
            className="input"
            value={form.audience}
            onChange={(event) => setForm((f) => ({ ...f, audience: event.target.value === 'us' ? 'us' : 'all' }))}
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
            onChange={set('releaseAt')}
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
            onChange={set('expiresAt')}
          />
          <FieldError id={`${id}-expires`} message={errors.expiresAt} />
        </label>
        <label className="field">
          <span className="field-label">Products (ids, comma-separated)</span>
          <input className="input" value={form.products} onChange={set('products')} />
        </label>
        <label className="field">
          <span className="field-label">Programmes (ids, comma-separated)</span>
          <input className="input" value={form.programmes} onChange={set('programmes')} />
        </label>
      </div>
      <div className={styles.actions}>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          Save details
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
      <Refusal message={refusal} />
    </form>
  );
}
