import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { shareLink } from '@/lib/share';
import { BackIcon, FilterIcon, InfoIcon, MailIcon, ShareIcon, SupportIcon } from '../icons';
import { FiltersModal } from '../modal/FiltersModal';
import { SupportModal } from '../modal/SupportModal';
import styles from './PageFrame.module.css';
import { PULL_THRESHOLD, usePullToRefresh } from './usePullToRefresh';

export interface PageFrameProps {
  title: ReactNode;
  /** Back button: a route, `true` for the previous page, or a handler. */
  back?: string | true | (() => void);
  /** Info button: opens the guided tour (/wizard) at this screen's step (its key, e.g. 'documents'). */
  info?: string;
  /** Mail button: an e-mail address or a full mailto: link. */
  mail?: string;
  /** Support button, opens the support modal. */
  support?: boolean;
  /** Share button: `true` shares the current page link, or a custom handler. */
  share?: true | (() => void);
  /** Filter controls; when given, a filters button opens them in the 'Filters' modal. */
  filters?: ReactNode;
  /** Marks the filters button when filters differ from the defaults. */
  filtersActive?: boolean;
  onFiltersDone?: () => void;
  /** Pull-to-refresh action of the page. */
  onRefresh?: () => Promise<unknown>;
  /** Replaces the standard header (e.g. the home hero). */
  header?: ReactNode;
  /** Sticky area at the bottom of the page (main actions). */
  footer?: ReactNode;
  children?: ReactNode;
}

function IconButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={styles.iconButton} onClick={onClick} aria-label={label} title={label}>
      {children}
    </button>
  );
}

/** The frame of every screen: header with title and buttons, content, optional footer. */
export function PageFrame(props: PageFrameProps) {
  const { title, back, info, mail, support, share, filters, filtersActive, onFiltersDone, onRefresh } = props;
  const navigate = useNavigate();
  const [supportOpen, setSupportOpen] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const { pull, refreshing } = usePullToRefresh(onRefresh);

  useEffect(() => {
    if (typeof title === 'string') document.title = `${title} · Companion`;
  }, [title]);

  const goBack = () => {
    if (typeof back === 'function') back();
    else if (typeof back === 'string') void navigate(back);
    else void navigate(-1);
  };

  const onShare = () => {
    if (typeof share === 'function') share();
    else void shareLink(typeof title === 'string' ? title : document.title);
  };

  const mailHref = mail ? (mail.startsWith('mailto:') ? mail : `mailto:${mail}`) : null;
  const indicator = refreshing ? PULL_THRESHOLD : pull;

  return (
    <div className={styles.page}>
      {onRefresh && (
        <div
          className={styles.pull}
          style={{ height: indicator, opacity: Math.min(1, indicator / PULL_THRESHOLD) }}
          aria-hidden={!refreshing}
        >
          <span
            className={`${styles.pullSpinner} ${refreshing ? styles.spinning : ''}`}
            style={{ transform: `rotate(${indicator * 4}deg)` }}
          />
          {refreshing && <span className="visually-hidden">Refreshing</span>}
        </div>
      )}

      {props.header ?? (
        <header className={styles.header}>
          {back !== undefined && (
            <IconButton label="Back" onClick={goBack}>
              <BackIcon />
            </IconButton>
          )}
          <h1 className={`${styles.title} ${back === undefined ? styles.titleAlone : ''}`}>{title}</h1>
          <div className={styles.actions}>
            {info && (
              <IconButton label="Info" onClick={() => void navigate(`/wizard?screen=${encodeURIComponent(info)}`)}>
                <InfoIcon />
              </IconButton>
            )}
            {mailHref && (
              <a className={styles.iconButton} href={mailHref} aria-label="Mail" title="Mail">
                <MailIcon />
              </a>
            )}
            {support && (
              <IconButton label="Support" onClick={() => setSupportOpen(true)}>
                <SupportIcon />
              </IconButton>
            )}
            {share && (
              <IconButton label="Share" onClick={onShare}>
                <ShareIcon />
              </IconButton>
            )}
            {filters !== undefined && (
              <IconButton label="Filters" onClick={() => setFiltersOpen(true)}>
                <FilterIcon />
                {filtersActive && <span className={styles.dot} />}
              </IconButton>
            )}
          </div>
        </header>
      )}

      <main className={styles.content}>{props.children}</main>

      {props.footer && <div className={styles.footer}>{props.footer}</div>}

      {support && <SupportModal open={supportOpen} onClose={() => setSupportOpen(false)} />}
      {filters !== undefined && (
        <FiltersModal open={filtersOpen} onClose={() => setFiltersOpen(false)} onDone={onFiltersDone}>
          {filters}
        </FiltersModal>
      )}
    </div>
  );
}
