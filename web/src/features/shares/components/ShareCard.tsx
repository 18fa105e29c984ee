import { useState } from 'react';
import { Badge, type BadgeTone } from '@/components/Badge';
import { Modal } from '@/components/modal/Modal';
import { safeServerMessage } from '@/lib/api/errors';
import { toast } from '@/lib/stores/toast';
import { useRevokeShare } from '../api/shares';
import {
  downloadsLine,
  formatMoment,
  opensLine,
  pageLines,
  revokeQuestion,
  stateLabel,
  stateLine,
} from '../logic/format';
import type { ShareView } from '../types';
import styles from './Shares.module.css';

const STATE_TONES: Record<string, BadgeTone> = {
  active: 'green',
  expired: 'grey',
  revoked: 'red',
  used_up: 'orange',
  ended: 'grey',
};

export interface ShareCardProps {
  share: ShareView;
  /** The document's title, in the Sent view where shares of many documents are listed. */
  title?: string;
  /** Where tapping the title leads (the document's Shares screen). */
  onOpenItem?: () => void;
  /** Shows the sender (the owner sees shares others made of their document). */
  showSender?: boolean;
  /** The Sent view is a summary: no pages, no revoke. */
  compact?: boolean;
}

/** One external share: to whom, its state, and what the recipient did with it. */
export function ShareCard({ share, title, onOpenItem, showSender, compact }: ShareCardProps) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useRevokeShare();
  const pages = pageLines(share.pages);

  const confirmRevoke = () =>
    revoke.mutate(share.id, {
      onSuccess: () => {
        setConfirming(false);
        toast.dark(`The link sent to ${share.recipient} no longer works`);
      },
      onError: (error) => toast.danger(safeServerMessage(error) || 'Cannot revoke the link'),
    });

  return (
    <li className={styles.card} data-testid="share-card" data-state={share.state}>
      {title !== undefined &&
        (onOpenItem ? (
          <button type="button" className={styles.itemTitle} onClick={onOpenItem}>
            {title}
          </button>
        ) : (
          <p className={styles.itemTitle}>{title}</p>
        ))}
      <div className={styles.cardHead}>
        <span className={styles.recipient}>{share.recipient}</span>
        <Badge tone={STATE_TONES[share.state] ?? 'grey'}>{stateLabel(share.state)}</Badge>
      </div>
      <p className={styles.line}>
        Sent {formatMoment(share.sent_at)}
        {showSender && share.sender.name ? ` by ${share.sender.name}` : ''}
      </p>
      <p className={styles.line}>{stateLine(share)}</p>
      <p className={styles.figures} data-testid="share-opens">
        {opensLine(share)}
        {typeof share.last_opened_at === 'number' && `, last ${formatMoment(share.last_opened_at)}`}
      </p>
      {share.possibly_forwarded && (
        <p className={styles.forwarded} data-testid="share-forwarded">
          <Badge tone="orange">Possibly forwarded</Badge>
          <span className={styles.line}>Opened on more than one device</span>
        </p>
      )}
      {!compact && (
        <>
          <p className={styles.line} data-testid="share-downloads">
            {downloadsLine(share)}
          </p>
          {pages.length > 0 && (
            <ul className={styles.pages} aria-label={`Pages viewed by ${share.recipient}`} data-testid="share-pages">
              {pages.map((line) => (
                <li key={line} className={styles.page}>
                  {line}
                </li>
              ))}
            </ul>
          )}
          {share.state === 'active' && (
            <button
              type="button"
              className={`btn btn-outline ${styles.revoke}`}
              onClick={() => setConfirming(true)}
              disabled={revoke.isPending}
            >
              Revoke
            </button>
          )}
        </>
      )}
      {confirming && (
        <Modal
          open
          onClose={() => setConfirming(false)}
          title="Revoke link"
          variant="dialog"
          footer={
            <div className={styles.footerButtons}>
              <button type="button" className="btn btn-outline" onClick={() => setConfirming(false)}>
                Cancel
              </button>
              <button type="button" className="btn btn-danger" onClick={confirmRevoke} disabled={revoke.isPending}>
                Revoke
              </button>
            </div>
          }
        >
          <p className={styles.question}>{revokeQuestion(share.recipient)}</p>
        </Modal>
      )}
    </li>
  );
}
