import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { LockIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';
import { refreshBadges } from '@/lib/api/badges';
import { selectUser, useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { whatsNewKeys } from '../api/keys';
import { publishNotification, publishUpdate, type PublishNotificationBody } from '../api/publish';
import { MESSAGES, toastText } from '../messages';
import styles from './PublishPage.module.css';

type Kind = 'notification' | 'update';

/** Link types of the notification form: the spec's typed links, then app sections. */
const LINK_TYPES: readonly { value: string; label: string; takesId: boolean }[] = [
  { value: '', label: 'No link', takesId: false },
  { value: 'products', label: 'Product', takesId: true },
  { value: 'news', label: 'News', takesId: true },
  { value: 'congress', label: 'Congress or event', takesId: true },
  { value: 'training', label: 'Sales training', takesId: true },
  { value: 'learn', label: 'Medical education course', takesId: true },
  { value: 'documents', label: 'Documents', takesId: false },
  { value: 'useful', label: 'Useful links', takesId: false },
  { value: 'contacts', label: 'Contacts', takesId: false },
  { value: 'multimedia', label: 'Multimedia', takesId: false },
  { value: 'search', label: 'Search', takesId: false },
  { value: 'new', label: "What's New", takesId: false },
];

/** Splits a list typed one per line or separated by commas. */
function lines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function Field({ label, children, hint }: { label: string; children: (id: string) => ReactNode; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
      {hint && <span className={styles.hint}>{hint}</span>}
    </div>
  );
}

/**
 * Sends one publication at a time: on success the form's own follow-up, then What's New lists and
 * badges reload; a failure shows the server's message or the generic one.
 */
function usePublish() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const publish = async (send: () => Promise<{ id: number }>, published: (id: number) => void) => {
    if (busy) return;
    setBusy(true);
    try {
      const { id } = await send();
      published(id);
      void queryClient.invalidateQueries({ queryKey: whatsNewKeys.all });
      void refreshBadges();
    } catch (error) {
      toast.danger(toastText(error, MESSAGES.operation));
    } finally {
      setBusy(false);
    }
  };
  return { busy, publish };
}

function NotificationForm() {
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [preview, setPreview] = useState('');
  const [linkType, setLinkType] = useState('');
  const [linkId, setLinkId] = useState('');
  const [everyone, setEveryone] = useState(true);
  const [emails, setEmails] = useState('');
  const { busy, publish } = usePublish();
  const takesId = LINK_TYPES.find((t) => t.value === linkType)?.takesId ?? false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: PublishNotificationBody = {
      title,
      message,
      preview: preview.trim() || null,
      link: linkType ? { type: linkType, id: takesId && linkId.trim() ? Number(linkId) : null } : null,
      audience: everyone ? 'everyone' : lines(emails),
    };
    await publish(
      () => publishNotification(body),
      (id) => {
        toast.dark(`The notification has been published (no. ${id})`);
        setTitle('');
        setMessage('');
        setPreview('');
        setLinkType('');
        setLinkId('');
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} aria-label="New notification">
      <Field label="Title">
        {(id) => (
          <input id={id} className="input" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        )}
      </Field>
      <Field
        label="Message (HTML)"
        hint="Paragraphs, bold, italics, lists and links are kept; anything else is removed."
      >
        {(id) => (
          <textarea
            id={id}
            className={`input ${styles.textarea}`}
            value={message}
            rows={6}
            placeholder="<p>…</p>"
            onChange={(e) => setMessage(e.target.value)}
          />
        )}
      </Field>
      <Field label="Preview image (optional)">
        {(id) => (
          <input
            id={id}
            className="input"
            value={preview}
            placeholder="/media/… or https://…"
            onChange={(e) => setPreview(e.target.value)}
          />
        )}
      </Field>
      <div className={styles.row}>
        <Field label="Link">
          {(id) => (
            <select id={id} className="input" value={linkType} onChange={(e) => setLinkType(e.target.value)}>
              {LINK_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Link id">
          {(id) => (
            <input
              id={id}
              className="input"
              inputMode="numeric"
              value={takesId ? linkId : ''}
              disabled={!takesId}
              placeholder={takesId ? 'optional' : '—'}
              onChange={(e) => setLinkId(e.target.value.replace(/\D/g, ''))}
            />
          )}
        </Field>
      </div>
      <fieldset className={styles.audience}>
        <legend className="field-label">Audience</legend>
        <label className={styles.radio}>
          <input type="radio" name="audience" checked={everyone} onChange={() => setEveryone(true)} />
          Everyone
        </label>
        <label className={styles.radio}>
          <input type="radio" name="audience" checked={!everyone} onChange={() => setEveryone(false)} />
          Chosen users
        </label>
        {!everyone && (
          <Field label="E-mails of the users" hint="One per line, or separated by commas.">
            {(id) => (
              <textarea
                id={id}
                className={`input ${styles.textarea}`}
                rows={3}
                value={emails}
                onChange={(e) => setEmails(e.target.value)}
              />
            )}
          </Field>
        )}
      </fieldset>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        Publish notification
      </button>
    </form>
  );
}

function UpdateForm() {
  const [name, setName] = useState('');
  const [release, setRelease] = useState('');
  const [preview, setPreview] = useState('');
  const [gallery, setGallery] = useState('');
  const [url, setUrl] = useState('');
  const { busy, publish } = usePublish();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name, release, preview: preview.trim() || null, gallery: lines(gallery), url: url.trim() || null };
    await publish(
      () => publishUpdate(body),
      (id) => {
        toast.dark(`The app update has been published (no. ${id})`);
        setName('');
        setRelease('');
        setPreview('');
        setGallery('');
        setUrl('');
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} aria-label="New app update">
      <Field label="Name">
        {(id) => (
          <input id={id} className="input" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        )}
      </Field>
      <Field label="Release">
        {(id) => (
          <input
            id={id}
            className="input"
            value={release}
            placeholder="2.7.0"
            onChange={(e) => setRelease(e.target.value)}
          />
        )}
      </Field>
      <Field label="Preview image (optional)">
        {(id) => (
          <input
            id={id}
            className="input"
            value={preview}
            placeholder="/media/… or https://…"
            onChange={(e) => setPreview(e.target.value)}
          />
        )}
      </Field>
      <Field label="Gallery images" hint="The big images of the wizard, one address per line, in order.">
        {(id) => (
          <textarea
            id={id}
            className={`input ${styles.textarea}`}
            rows={4}
            value={gallery}
            onChange={(e) => setGallery(e.target.value)}
          />
        )}
      </Field>
      <Field label="Discover more (optional)" hint="An app path such as /app/news/15, or an https address.">
        {(id) => <input id={id} className="input" value={url} onChange={(e) => setUrl(e.target.value)} />}
      </Field>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        Publish update
      </button>
    </form>
  );
}

/** Publishing notifications and app updates: the admin role only (the server checks it too). */
export default function PublishPage() {
  const user = useSession(selectUser);
  const [params, setParams] = useSearchParams();
  const kind: Kind = params.get('kind') === 'update' ? 'update' : 'notification';

  if (user?.role !== 'admin') {
    return (
      <PageFrame title="Publish" back="/menu">
        <EmptyState icon={<LockIcon size={32} />} title="Only administrators can publish">
          Notifications and app updates are published by the admin team.
        </EmptyState>
      </PageFrame>
    );
  }

  return (
    <PageFrame title="Publish" back="/menu">
      <div className={styles.chips} role="tablist" aria-label="What to publish">
        {(['notification', 'update'] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={value === kind}
            className={`${styles.chip} ${value === kind ? styles.chipOn : ''}`}
            onClick={() => setParams({ kind: value }, { replace: true })}
          >
            {value === 'notification' ? 'Notification' : 'App update'}
          </button>
        ))}
      </div>
      {kind === 'notification' ? <NotificationForm /> : <UpdateForm />}
    </PageFrame>
  );
}
