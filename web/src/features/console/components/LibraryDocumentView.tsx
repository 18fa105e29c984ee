import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { DocumentsIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { saveBlob } from '@/lib/files';
import {
  decideLibrary,
  fetchVersionFile,
  submitLibrary,
  updateLibraryMetadata,
  uploadVersion,
  useLibraryHistory,
  useLibraryItem,
  withdrawLibrary,
} from '../api/library';
import { refusalMessage } from '../logic/errors';
import { formatBytes, metadataBody, metadataForm, versionBody } from '../logic/forms';
import {
  audienceLabel,
  formatDate,
  formatWhen,
  instantMs,
  labelText,
  stepsFor,
  type ConsoleRights,
} from '../logic/status';
import type { LibraryDetail, LibraryVersion } from '../types';
import styles from './Console.module.css';
import { DetailsForm } from './DetailsForm';
import { HistoryList } from './HistoryList';
import { DecisionForm, VersionForm, WithdrawForm } from './LifecycleForms';
import { Refusal, StatusBadge } from './shared';
import { useConsoleAction } from './useConsoleAction';
import { WithdrawalReportPanel } from './WithdrawalReportPanel';

type Open = 'details' | 'version' | 'approve' | 'reject' | 'withdraw' | null;

/** One library document: metadata, versions, history, the lifecycle steps the role may take. */
export function LibraryDocumentView({ id, rights }: { id: number; rights: ConsoleRights }) {
  const item = useLibraryItem(id);
  const history = useLibraryHistory(id);

  if (item.isPending) return <Loader />;
  if (item.error) {
    return (
      <section className={styles.workspace}>
        <Link to="/console" className={styles.titleLink}>
          ← All documents
        </Link>
        <Refusal message={refusalMessage(item.error, 'The document could not be loaded')} />
      </section>
    );
  }
  const doc = item.data;
  const steps = stepsFor(doc.status);

  return (
    <article className={styles.workspace} aria-label={doc.title}>
      <Link to="/console" className={styles.titleLink}>
        ← All documents
      </Link>
      <div className={styles.head}>
        <h2 className={styles.docTitle}>{doc.title}</h2>
        <StatusBadge status={doc.status} />
        <span className={styles.muted}>
          v{doc.version}
          {doc.released_version !== null ? ` · v${doc.released_version} released` : ''}
        </span>
      </div>
      {doc.withdrawn && (
        <div className={styles.withdrawn} role="note">
          <strong>{doc.status === 'expired' ? 'Expired' : 'Withdrawn'}</strong> {formatWhen(doc.withdrawn.at)}
          {doc.withdrawn.by ? ` by ${doc.withdrawn.by.name}` : ''}: {doc.withdrawn.reason}
          {doc.withdrawn.replacement && (
            <>
              {' '}
              · Replaced by{' '}
              <Link className={styles.titleLink} to={`/console/library/${doc.withdrawn.replacement.id}`}>
                {doc.withdrawn.replacement.title}
              </Link>
            </>
          )}
        </div>
      )}
      <Metadata doc={doc} />
      <Steps doc={doc} rights={rights} />
      <Versions doc={doc} />
      <HistoryList history={history} />
      {steps.report && rights.report && <WithdrawalReportPanel id={doc.id} />}
    </article>
  );
}

function Metadata({ doc }: { doc: LibraryDetail }) {
  const list = (values: string[]) => (values.length ? values.join(', ') : '—');
  return (
    <dl className={`${styles.card} ${styles.meta}`}>
      <div>
        <dt>Audience</dt>
        <dd>{audienceLabel(doc.audience)}</dd>
      </div>
      <div>
        <dt>Labels</dt>
        <dd>{list(doc.labels.map(labelText))}</dd>
      </div>
      <div>
        <dt>Category</dt>
        <dd>{doc.category || '—'}</dd>
      </div>
      <div>
        <dt>Author</dt>
        <dd>{doc.author?.name ?? '—'}</dd>
      </div>
      <div>
        <dt>Release</dt>
        <dd>{doc.release_at !== null ? formatWhen(doc.release_at) : 'On approval'}</dd>
      </div>
      <div>
        <dt>Expiry</dt>
        <dd>{doc.expires_at !== null ? formatWhen(doc.expires_at) : 'None'}</dd>
      </div>
      <div>
        <dt>Products</dt>
        <dd>{list(doc.products)}</dd>
      </div>
      <div>
        <dt>Programmes</dt>
        <dd>{list(doc.programmes)}</dd>
      </div>
    </dl>
  );
}

/** The lifecycle buttons the role may use in this state, and the form of the one chosen. */
function Steps({ doc, rights }: { doc: LibraryDetail; rights: ConsoleRights }) {
  const [open, setOpen] = useState<Open>(null);
  const { run, pending, refusal, clearRefusal } = useConsoleAction();
  const steps = stepsFor(doc.status);

  const choose = (next: Open) => {
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
          void run(() => submitLibrary(doc.id), 'The submission failed', 'Submitted for approval');
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
    rights.publish && steps.newVersion && (
      <button key="version" type="button" className="btn btn-outline" onClick={() => choose('version')}>
        New version
      </button>
    ),
    rights.publish && steps.withdraw && (
      <button key="details" type="button" className="btn btn-outline" onClick={() => choose('details')}>
        Edit details
      </button>
    ),
    rights.withdraw && steps.withdraw && (
      <button key="withdraw" type="button" className="btn btn-danger" onClick={() => choose('withdraw')}>
        Withdraw
      </button>
    ),
  ].filter(Boolean);

  if (buttons.length === 0) return null;
  const cancel = () => choose(null);

  return (
    <>
      <div className={styles.actions} aria-label="Steps" role="group">
        {buttons}
      </div>
      {open === null && <Refusal message={refusal} />}
      {open === 'details' && (
        <DetailsForm
          initial={metadataForm({
            ...doc,
            releaseAtMs: instantMs(doc.release_at),
            expiresAtMs: instantMs(doc.expires_at),
          })}
          pending={pending}
          refusal={refusal}
          onCancel={cancel}
          onSubmit={(form) =>
            void run(
              () => updateLibraryMetadata(doc.id, metadataBody(form)),
              'The details could not be saved',
              'Details saved',
            ).then(finish)
          }
        />
      )}
      {open === 'version' && (
        <VersionForm
          pending={pending}
          refusal={refusal}
          onCancel={cancel}
          onSubmit={(file, note) =>
            void run(
              () => uploadVersion(doc.id, versionBody(file, note)),
              'The upload failed',
              'New draft version',
            ).then(finish)
          }
        />
      )}
      {(open === 'approve' || open === 'reject') && (
        <DecisionForm
          key={open}
          kind={open}
          pending={pending}
          refusal={refusal}
          onCancel={cancel}
          onSubmit={(comment) =>
            void run(
              () => decideLibrary(doc.id, open, comment),
              open === 'approve' ? 'The approval failed' : 'The rejection failed',
              open === 'approve' ? 'Approved' : 'Rejected',
            ).then(finish)
          }
        />
      )}
      {open === 'withdraw' && (
        <WithdrawForm
          self={doc.id}
          withReplacement
          pending={pending}
          refusal={refusal}
          onCancel={cancel}
          onSubmit={(reason, replacement) =>
            void run(() => withdrawLibrary(doc.id, reason, replacement), 'The withdrawal failed', 'Withdrawn').then(
              finish,
            )
          }
        />
      )}
    </>
  );
}

function Versions({ doc }: { doc: LibraryDetail }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const versions = [...doc.versions].sort((a, b) => b.version - a.version);

  const open = async (version: LibraryVersion) => {
    setRefusal(null);
    try {
      const file = await fetchVersionFile(doc.id, version.version);
      saveBlob(file.blob, file.fileName ?? version.file_name);
    } catch (error) {
      setRefusal(refusalMessage(error, 'The file could not be opened'));
    }
  };

  return (
    <section className={styles.card} aria-label="Versions">
      <h2 className={styles.cardTitle}>Versions</h2>
      <Refusal message={refusal} />
      {versions.length === 0 ? (
        <EmptyState icon={<DocumentsIcon size={28} />} title="No versions yet" />
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">File</th>
              <th scope="col">Author</th>
              <th scope="col">Note</th>
              <th scope="col">Status</th>
              <th scope="col">Decision</th>
              <th scope="col">Released</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((version) => (
              <tr key={version.version} data-testid="console-version">
                <td>v{version.version}</td>
                <td>
                  <button type="button" className={styles.linkButton} onClick={() => void open(version)}>
                    {version.file_name}
                  </button>
                  <div className={styles.muted}>{formatBytes(version.size)}</div>
                </td>
                <td>
                  {version.author?.name ?? '—'}
                  <div className={styles.muted}>{formatWhen(version.uploaded_at)}</div>
                </td>
                <td>{version.note || '—'}</td>
                <td>
                  <StatusBadge status={version.status} />
                  {version.submitted_at !== null && (
                    <div className={styles.muted}>submitted {formatDate(version.submitted_at)}</div>
                  )}
                </td>
                <td>
                  {version.decided_by ? (
                    <>
                      {version.decided_by.name}
                      <div className={styles.muted}>{formatWhen(version.decided_at)}</div>
                      {version.comment && <div>“{version.comment}”</div>}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{formatDate(version.released_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
