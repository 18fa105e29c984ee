import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { Loader } from '@/components/Loader';
import { EmbeddedPdfViewer } from '@/components/pdf/LazyPdfViewer';
import { DownloadIcon } from '@/components/icons';
import { saveBlob } from '@/lib/download';
import {
  fetchLinkFile,
  getLinkInfo,
  GONE_TEXT,
  MISSING_TEXT,
  VIEW_ONLY_TEXT,
  type LinkRefusal,
} from '../api/public-link';
import { formatDay, formatMoment } from '../logic/format';
import { newViewId } from '../logic/tracker';
import type { LinkInfo } from '../types';
import styles from './SharedLinkPage.module.css';
import { useEngagement } from './useEngagement';

export const TRACKING_NOTICE = 'Opens and the pages you view are recorded for the sender.';
export const NEW_LINK_TEXT = 'The sender may send you a new link.';

type PageState = { status: 'loading' } | { status: 'ready'; info: LinkInfo; blob: Blob | null } | LinkRefusal;

/**
 * /s/{token}: the page a recipient outside the company opens from the e-mail. No account, no
 * app around it: who sent what and when, the document in the app's PDF viewer (XLS: download
 * only), Download when the sender allowed it, and what is recorded for the sender.
 */
export default function SharedLinkPage() {
  const { token = '' } = useParams();
  // One view per page load: the server counts the first file request of a view as an open.
  const view = useMemo(() => newViewId(), []);
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const onPages = useEngagement(token, view, state.status === 'ready' && state.blob !== null);

  useEffect(() => {
    let cancelled = false;
    const load = async (): Promise<PageState> => {
      const info = await getLinkInfo(token);
      if (info.status !== 'live') return info;
      if (info.info.kind !== 'pdf') return { status: 'ready', info: info.info, blob: null };
      const file = await fetchLinkFile(token, view, false);
      if (file.status === 'ok') return { status: 'ready', info: info.info, blob: file.blob };
      if (file.status === 'view_only') return { status: 'failed', message: VIEW_ONLY_TEXT };
      return file;
    };
    void load().then((next) => {
      if (!cancelled) setState(next);
    });
    return () => {
      cancelled = true;
    };
  }, [token, view, attempt]);

  useEffect(() => {
    const previous = document.title;
    if (state.status === 'ready') document.title = state.info.title;
    else if (state.status === 'gone') document.title = GONE_TEXT;
    else if (state.status === 'missing') document.title = MISSING_TEXT;
    return () => {
      document.title = previous;
    };
  }, [state]);

  switch (state.status) {
    case 'loading':
      return (
        <main className={styles.page}>
          <Loader full label="Loading document" />
        </main>
      );
    case 'gone':
      return (
        <Refusal title={GONE_TEXT} testId="link-gone">
          {state.replacement && <p className={styles.muted}>{NEW_LINK_TEXT}</p>}
        </Refusal>
      );
    case 'missing':
      return <Refusal title={MISSING_TEXT} testId="link-missing" />;
    case 'failed':
      return (
        <Refusal title="The document cannot be shown" testId="link-failed">
          <p className={styles.muted}>{state.message}</p>
          <button type="button" className="btn btn-outline" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </Refusal>
      );
    case 'ready':
      return (
        <LinkView
          token={token}
          view={view}
          info={state.info}
          blob={state.blob}
          onPages={onPages}
          onRefused={(refusal) => setState(refusal)}
        />
      );
  }
}

function Refusal({ title, testId, children }: { title: string; testId: string; children?: ReactNode }) {
  return (
    <main className={`${styles.page} ${styles.refusal}`} data-testid={testId}>
      <h1 className={styles.refusalTitle}>{title}</h1>
      {children}
    </main>
  );
}

interface LinkViewProps {
  token: string;
  view: string;
  info: LinkInfo;
  blob: Blob | null;
  onPages: (scroller: HTMLElement, pages: HTMLElement[]) => void;
  onRefused: (refusal: LinkRefusal) => void;
}

function LinkView({ token, view, info, blob, onPages, onRefused }: LinkViewProps) {
  const [downloading, setDownloading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const download = async () => {
    setDownloading(true);
    setProblem(null);
    const file = await fetchLinkFile(token, view, true);
    setDownloading(false);
    if (file.status === 'ok') saveBlob(file.blob, file.fileName ?? info.title);
    else if (file.status === 'view_only') setProblem(VIEW_ONLY_TEXT);
    else if (file.status === 'failed') setProblem(file.message);
    else onRefused(file);
  };

  const sender = info.sender.name || 'A colleague';
  return (
    <main className={`${styles.page} ${blob ? styles.reading : ''}`} data-testid="shared-link">
      <header className={styles.head}>
        {info.company && <p className={styles.company}>{info.company}</p>}
        <h1 className={styles.title}>{info.title}</h1>
        <p className={styles.from}>
          {sender} shared this document with you on {formatDay(info.sent_at)}.
        </p>
        <p className={styles.muted}>The link works until {formatMoment(info.expires_at)}.</p>
        <p className={styles.notice}>
          {TRACKING_NOTICE}{' '}
          <a href="/privacy" target="_blank" rel="noopener noreferrer">
            Privacy policy
          </a>
        </p>
        {info.allow_download && (
          <button
            type="button"
            className={`btn btn-primary ${styles.download}`}
            onClick={() => void download()}
            disabled={downloading}
          >
            <DownloadIcon size={20} /> {downloading ? 'Downloading…' : 'Download'}
          </button>
        )}
        {problem && (
          <p className={styles.problem} role="alert">
            {problem}
          </p>
        )}
      </header>
      {blob ? (
        <EmbeddedPdfViewer blob={blob} onPages={onPages} className={styles.viewer} />
      ) : (
        <p className={styles.spreadsheet}>
          {info.allow_download
            ? 'This spreadsheet cannot be shown in the browser: download it to open it.'
            : 'This spreadsheet cannot be shown in the browser.'}
        </p>
      )}
    </main>
  );
}
