import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { SendIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { useItemShares } from '../api/shares';
import { titleFromState } from '../logic/route';
import { ShareCard } from './ShareCard';
import styles from './Shares.module.css';

/** The first location of a page load has this key in react-router. */
const FIRST_LOAD_KEY = 'default';

export const NO_SHARES = 'No external shares yet.';

/**
 * /documents/{id}/shares: the document's external shares (all of them for its owner, their own
 * for a sender) and what each recipient did. Refreshed live by the feed's share messages.
 */
export default function SharesPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const shares = useItemShares(id);
  const me = useSession((state) => state.user?.id);
  const title = titleFromState(location.state);

  useEffect(() => {
    if (!shares.error) return;
    toast.danger(safeServerMessage(shares.error) || 'An error occurred while retrieving the shares. Retry later');
    if (hasStatus(shares.error, 403, 404)) void navigate('/documents', { replace: true });
  }, [shares.error, navigate]);

  return (
    <PageFrame
      title="Shares"
      back={location.key === FIRST_LOAD_KEY ? '/documents' : true}
      onRefresh={() => shares.refetch()}
    >
      <div className={styles.head}>
        {title && <h2 className={styles.docTitle}>{title}</h2>}
        <p className={styles.hint}>External links of this document and what their recipients did with them.</p>
      </div>
      {shares.isPending && <Loader />}
      {shares.data &&
        (shares.data.length === 0 ? (
          <EmptyState icon={<SendIcon size={32} />} title={NO_SHARES} />
        ) : (
          <ul className={styles.list} aria-label="External shares">
            {shares.data.map((share) => (
              <ShareCard key={share.id} share={share} showSender={String(share.sender.id) !== String(me)} />
            ))}
          </ul>
        ))}
    </PageFrame>
  );
}
