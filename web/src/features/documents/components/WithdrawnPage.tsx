import { useQuery } from '@tanstack/react-query';
import { useLocation, useParams } from 'react-router';
import { useDocumentOpener } from '@/components/documents/useDocumentOpener';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { fetchBinary } from '@/lib/files';
import {
  OPEN_REPLACEMENT,
  readWithdrawnPageState,
  withdrawalOfError,
  withdrawalText,
  type Withdrawal,
} from '@/components/documents/withdrawn';
import { tabPath } from '../logic/route';
import styles from './Withdrawn.module.css';

/** Reached without the screen's hand-over (a reload): the file route's 410 says why. */
async function askServer(url: string): Promise<Withdrawal | null> {
  try {
    await fetchBinary(url);
    return null;
  } catch (error) {
    return withdrawalOfError(error);
  }
}

/**
 * The page of a withdrawn or expired document (a copy kept in My Docs, or any file that answered
 * 410): that it went, when and why, and the way to the document that replaces it.
 */
export default function WithdrawnPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  // `/library/{id}/withdrawn` is a library document's, `/documents/{id}/withdrawn` an item's.
  const library = location.pathname.startsWith('/library/');
  const handed = readWithdrawnPageState(location.state);
  const url = library ? `/api/library/${encodeURIComponent(id)}/file` : `/api/documents/${encodeURIComponent(id)}/file`;
  const asked = useQuery({
    queryKey: ['withdrawn-document', url],
    queryFn: () => askServer(url),
    enabled: handed === null && id !== '',
    staleTime: Infinity,
  });
  const withdrawal = handed?.withdrawal ?? asked.data ?? null;
  const opener = useDocumentOpener();
  const back = library ? true : tabPath('my');

  if (!withdrawal) {
    return (
      <PageFrame title="Document" back={back}>
        {asked.isPending && handed === null ? (
          <Loader full />
        ) : (
          <p className={styles.note}>This document can be opened.</p>
        )}
      </PageFrame>
    );
  }

  const text = withdrawalText(withdrawal);
  const replacement = withdrawal.replacement;
  return (
    <PageFrame title={handed?.title || 'Document'} back={back}>
      <section className={styles.page} data-testid="withdrawn-page" data-state={withdrawal.state}>
        <span className={styles.tag}>{text.tag}</span>
        <h2 className={styles.message}>{text.message}</h2>
        {text.when && <p className={styles.when}>{text.when}</p>}
        {text.reason && (
          <div className={styles.reason}>
            <span className={styles.reasonLabel}>Reason</span>
            <p>{text.reason}</p>
          </div>
        )}
        {replacement ? (
          <>
            <p className={styles.note}>It was replaced by “{replacement.title}”.</p>
            <button
              type="button"
              className="btn btn-primary btn-block"
              onClick={() => void opener.open({ title: replacement.title, url: replacement.url })}
            >
              {OPEN_REPLACEMENT}
            </button>
          </>
        ) : (
          <p className={styles.note}>There is no replacement. Ask your contact at the company if you need it.</p>
        )}
      </section>
      {opener.element}
    </PageFrame>
  );
}
