import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { SendIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { safeServerMessage } from '@/lib/api/errors';
import { toast } from '@/lib/stores/toast';
import { useSentShares } from '../api/shares';
import { sentShares, sharesPath } from '../logic/route';
import { ShareCard } from './ShareCard';
import styles from './Shares.module.css';

/** /documents/sent: the user's own external shares, newest first, with their state and opens. */
export default function SentPage() {
  const navigate = useNavigate();
  const sent = useSentShares();
  const shares = sent.data ? sentShares(sent.data.pages) : [];

  useEffect(() => {
    if (sent.error)
      toast.danger(safeServerMessage(sent.error) || 'An error occurred while retrieving the shares. Retry later');
  }, [sent.error]);

  return (
    <PageFrame title="Sent" back="/documents" onRefresh={() => sent.refetch()}>
      <div className={styles.head}>
        <p className={styles.hint}>The documents you sent outside the company, and whether they were opened.</p>
      </div>
      {sent.isPending && <Loader />}
      {sent.data &&
        (shares.length === 0 ? (
          <EmptyState icon={<SendIcon size={32} />} title="Nothing sent yet">
            <p>Use ‘Share externally’ in a document’s menu to send it with a tracked link.</p>
          </EmptyState>
        ) : (
          <ul className={styles.list} aria-label="Sent documents">
            {shares.map(({ item, ...share }) => (
              <ShareCard
                key={share.id}
                share={share}
                title={item?.title ?? ''}
                compact
                onOpenItem={
                  item ? () => void navigate(sharesPath(item.id), { state: { title: item.title } }) : undefined
                }
              />
            ))}
          </ul>
        ))}
      {sent.hasNextPage && (
        <button
          type="button"
          className={`btn btn-outline ${styles.more}`}
          onClick={() => void sent.fetchNextPage()}
          disabled={sent.isFetchingNextPage}
        >
          {sent.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </PageFrame>
  );
}
