import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Loader } from '@/components/Loader';
import { RichText } from '@/components/RichText';
import { createNews, decideNews, submitNews, updateNews, useNewsHistory, useNewsItem, withdrawNews } from '../api/news';
import { refusalMessage } from '../logic/errors';
import {
  EMPTY_NEWS,
  hasErrors,
  newsBody,
  toLocalInput,
  validateNews,
  type Errors,
  type NewsField,
  type NewsForm,
} from '../logic/forms';
import { formatWhen, instantMs, stepsFor, type ConsoleRights } from '../logic/status';
import type { NewsDetail } from '../types';
import styles from './Console.module.css';
import { HistoryList } from './HistoryList';
import { DecisionForm, WithdrawForm } from './LifecycleForms';
import { RichTextEditor } from './RichTextEditor';
import { FieldError, Refusal, StatusBadge } from './shared';
import { useConsoleAction } from './useConsoleAction';

function formOf(news: NewsDetail): NewsForm {
  return {
    title: news.title,
    category: news.category,
    date: news.date ?? '',
    preview: news.preview ?? '',
    bodyHtml: news.body_html,
    image: news.image ?? '',
    releaseAt: toLocalInput(instantMs(news.release_at)),
    expiresAt: toLocalInput(instantMs(news.expires_at)),
  };
}

/** /console/news/new and /console/news/{id}: write a news item, take it through its lifecycle. */
export function NewsEditorView({ id, rights }: { id: number | null; rights: ConsoleRights }) {
  const item = useNewsItem(id);
  const history = useNewsHistory(id);

  if (id === null) {
    return (
      <section className={styles.workspace}>
        <Link to="/console/news" className={styles.titleLink}>
          ← All news
        </Link>
        <NewsFormCard initial={EMPTY_NEWS} id={null} editable={rights.publish} />
      </section>
    );
  }
  if (item.isPending) return <Loader />;
  if (item.error) {
    return (
      <section className={styles.workspace}>
        <Link to="/console/news" className={styles.titleLink}>
          ← All news
        </Link>
        <Refusal message={refusalMessage(item.error, 'The news could not be loaded')} />
      </section>
    );
  }
  const news = item.data;
  const editable = rights.publish && news.status !== 'withdrawn' && news.status !== 'in_review';

  return (
    <article className={styles.workspace} aria-label={news.title}>
      <Link to="/console/news" className={styles.titleLink}>
        ← All news
      </Link>
      <div className={styles.head}>
        <h2 className={styles.docTitle}>{news.title}</h2>
        <StatusBadge status={news.status} />
        <span className={styles.muted}>
          v{news.version} · {news.author?.name ?? ''}
        </span>
      </div>
      <NewsSteps news={news} rights={rights} />
      {/* Keyed by version: a new version on the server refills the form. */}
      <NewsFormCard key={news.version} initial={formOf(news)} id={news.id} editable={editable} />
      {news.versions.length > 0 && (
        <section className={styles.card} aria-label="Versions">
          <h2 className={styles.cardTitle}>Versions</h2>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Author</th>
                <th scope="col">Status</th>
                <th scope="col">Decision</th>
                <th scope="col">Released</th>
              </tr>
            </thead>
            <tbody>
              {[...news.versions]
                .sort((a, b) => b.version - a.version)
                .map((version) => (
                  <tr key={version.version}>
                    <td>v{version.version}</td>
                    <td>
                      {version.author?.name ?? '—'}
                      <div className={styles.muted}>{formatWhen(version.created_at)}</div>
                    </td>
                    <td>
                      <StatusBadge status={version.status} />
                    </td>
                    <td>
                      {version.decided_by ? (
                        <>
                          {version.decided_by.name} · {formatWhen(version.decided_at)}
                          {version.comment && <div>“{version.comment}”</div>}
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>{formatWhen(version.released_at)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      )}
      <HistoryList history={history} />
    </article>
  );
}

function NewsSteps({ news, rights }: { news: NewsDetail; rights: ConsoleRights }) {
  const [open, setOpen] = useState<'approve' | 'reject' | 'withdraw' | null>(null);
  const { run, pending, refusal, clearRefusal } = useConsoleAction();
  const steps = stepsFor(news.status);
  const choose = (next: typeof open) => {
    clearRefusal();
    setOpen(next);
  };
  const finish = (answer: unknown) => {
    if (answer) setOpen(null);
  };

  const buttons = [
    rights.publish && steps.submit && (
      <button
        key="submit"
        type="button"
        className="btn btn-primary"
        disabled={pending}
        onClick={() => {
          setOpen(null);
          void run(() => submitNews(news.id), 'The submission failed', 'Submitted for approval');
        }}
      >
        Submit for approval
      </button>
    ),
    rights.decide && steps.decide && (
      <button key="approve" type="button" className="btn btn-primary" onClick={() => choose('approve')}>
        Approve
      </button>
    ),
    rights.decide && steps.decide && (
      <button key="reject" type="button" className="btn btn-outline" onClick={() => choose('reject')}>
        Reject
      </button>
    ),
    rights.withdraw && steps.withdraw && (
      <button key="withdraw" type="button" className="btn btn-danger" onClick={() => choose('withdraw')}>
        Withdraw
      </button>
    ),
  ].filter(Boolean);
  if (buttons.length === 0) return null;

  return (
    <>
      <div className={styles.actions} role="group" aria-label="Steps">
        {buttons}
      </div>
      {open === null && <Refusal message={refusal} />}
      {(open === 'approve' || open === 'reject') && (
        <DecisionForm
          key={open}
          kind={open}
          pending={pending}
          refusal={refusal}
          onCancel={() => choose(null)}
          onSubmit={(comment) =>
            void run(
              () => decideNews(news.id, open, comment),
              open === 'approve' ? 'The approval failed' : 'The rejection failed',
              open === 'approve' ? 'Approved' : 'Rejected',
            ).then(finish)
          }
        />
      )}
      {open === 'withdraw' && (
        <WithdrawForm
          self={news.id}
          withReplacement={false}
          pending={pending}
          refusal={refusal}
          onCancel={() => choose(null)}
          onSubmit={(reason) =>
            void run(() => withdrawNews(news.id, reason), 'The withdrawal failed', 'Withdrawn').then(finish)
          }
        />
      )}
    </>
  );
}

/** The news item's fields and body, with a preview of what readers will see. */
function NewsFormCard({ initial, id, editable }: { initial: NewsForm; id: number | null; editable: boolean }) {
  const uid = useId();
  const navigate = useNavigate();
  const [form, setForm] = useState<NewsForm>(initial);
  const [errors, setErrors] = useState<Errors<NewsField>>({});
  const { run, pending, refusal } = useConsoleAction();
  const set = (key: keyof NewsForm) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  const save = async () => {
    const found = validateNews(form);
    setErrors(found);
    if (hasErrors(found)) return;
    const body = newsBody(form);
    const answer = await run(
      () => (id === null ? createNews(body) : updateNews(id, body)),
      'The news could not be saved',
      id === null ? 'Draft created' : 'New draft version saved',
    );
    if (answer && id === null) void navigate(`/console/news/${answer.id}`, { replace: true });
  };

  const field = (key: NewsField) => ({
    'aria-invalid': Boolean(errors[key]),
    'aria-describedby': `${uid}-${key}`,
    disabled: !editable,
  });

  return (
    <div className={styles.columns}>
      <form
        className={styles.card}
        aria-label={id === null ? 'New news' : 'Edit news'}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <h2 className={styles.cardTitle}>
          {id === null ? 'New news' : editable ? 'Edit (saves a new draft version)' : 'Content'}
        </h2>
        <div className={styles.form}>
          <label className={`field ${styles.full}`}>
            <span className="field-label">Title</span>
            <input className="input" value={form.title} onChange={set('title')} {...field('title')} />
            <FieldError id={`${uid}-title`} message={errors.title} />
          </label>
          <label className="field">
            <span className="field-label">Category</span>
            <input className="input" value={form.category} onChange={set('category')} {...field('category')} />
            <FieldError id={`${uid}-category`} message={errors.category} />
          </label>
          <label className="field">
            <span className="field-label">Date (optional)</span>
            <input className="input" type="date" value={form.date} onChange={set('date')} {...field('date')} />
            <FieldError id={`${uid}-date`} message={errors.date} />
          </label>
          <label className={`field ${styles.full}`}>
            <span className="field-label">Preview (optional)</span>
            <input className="input" value={form.preview} onChange={set('preview')} disabled={!editable} />
          </label>
          <div className={`field ${styles.full}`}>
            <span className="field-label" id={`${uid}-bodyLabel`}>
              Body
            </span>
            {editable ? (
              <RichTextEditor
                initialHtml={initial.bodyHtml}
                label="Body"
                invalid={Boolean(errors.bodyHtml)}
                describedBy={`${uid}-bodyHtml`}
                onChange={(html) => setForm((f) => ({ ...f, bodyHtml: html }))}
              />
            ) : (
              <RichText html={form.bodyHtml} className={styles.preview} />
            )}
            <FieldError id={`${uid}-bodyHtml`} message={errors.bodyHtml} />
          </div>
          <label className="field">
            <span className="field-label">Release at (empty: on approval)</span>
            <input
              className="input"
              type="datetime-local"
              value={form.releaseAt}
              onChange={set('releaseAt')}
              {...field('releaseAt')}
            />
            <FieldError id={`${uid}-releaseAt`} message={errors.releaseAt} />
          </label>
          <label className="field">
            <span className="field-label">Expires at (optional)</span>
            <input
              className="input"
              type="datetime-local"
              value={form.expiresAt}
              onChange={set('expiresAt')}
              {...field('expiresAt')}
            />
            <FieldError id={`${uid}-expiresAt`} message={errors.expiresAt} />
          </label>
          <label className={`field ${styles.full}`}>
            <span className="field-label">Image address (optional)</span>
            <input className="input" value={form.image} onChange={set('image')} disabled={!editable} />
          </label>
        </div>
        {editable && (
          <div className={styles.actions}>
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending ? 'Saving…' : id === null ? 'Save as draft' : 'Save new version'}
            </button>
          </div>
        )}
        <Refusal message={refusal} />
      </form>
      <section className={styles.card} aria-label="Preview">
        <h2 className={styles.cardTitle}>Preview</h2>
        <div className={styles.preview}>
          <p className={styles.muted}>
            {form.category || 'Category'}
            {form.date ? ` · ${form.date}` : ''}
          </p>
          <h3>{form.title || 'Title'}</h3>
          {form.preview && <p>{form.preview}</p>}
          <RichText html={form.bodyHtml} />
        </div>
      </section>
    </div>
  );
}
