import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CloseIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { Slider, SLIDE_SPEED_MS } from '@/components/slider/Slider';
import { refreshBadges } from '@/lib/api/badges';
import { takeNotificationLink } from '@/lib/session/links';
import { skipUpdateAfterFailure } from '@/lib/session/next';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { updatesQuery } from '../api/get-updates';
import { whatsNewKeys } from '../api/keys';
import { useUpdate } from '../api/open-update';
import { updateTarget, type UpdateTarget } from '../link-route';
import { MESSAGES } from '../messages';
import styles from './UpdateWizardPage.module.css';

/** Where the wizard goes when it is done: a pending notification target, else the updates list. */
const AFTER_WIZARD = '/new?section=updates';

function parseId(raw: string | undefined): number | null {
  return raw && /^[1-9]\d*$/.test(raw) ? Number(raw) : null;
}

/**
 * The update wizard (spec 2.10): the update's big images in a slider (400 ms),
 * then 'Discover more' (its url without the app prefix) or 'Close'. Opening it
 * records the view on the server, so the update is not offered again.
 */
export default function UpdateWizardPage() {
  const { id: rawId } = useParams();
  const id = parseId(rawId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: update, isError } = useUpdate(id);
  const [index, setIndex] = useState(0);
  const leaving = useRef(false);

  /** Checks the latest updates (list and badges), then leaves for `target` or the usual place. */
  const leave = useCallback(
    async (target: UpdateTarget | null) => {
      if (leaving.current) return;
      leaving.current = true;
      useSession.getState().updateSeen();
      try {
        await queryClient.fetchQuery({ ...updatesQuery(), staleTime: 0 });
      } catch {
        toast.danger(MESSAGES.updatesCheck);
      }
      void refreshBadges();
      if (target?.kind === 'in-app') {
        void navigate(target.path, { replace: true });
        return;
      }
      if (target?.kind === 'external') window.open(target.url, '_blank', 'noopener,noreferrer');
      void navigate(takeNotificationLink() ?? AFTER_WIZARD, { replace: true });
    },
    [navigate, queryClient],
  );

  // Without an id there is nothing to show: the missing-id toast (spec section 8), then the
  // same redirect as at the end.
  useEffect(() => {
    if (id !== null || leaving.current) return;
    toast.danger(MESSAGES.generic);
    void leave(null);
  }, [id, leave]);

  useEffect(() => {
    if (!isError || id === null || leaving.current) return;
    leaving.current = true;
    skipUpdateAfterFailure(id);
    useSession.getState().updateSeen();
    toast.dangerOn('/home', MESSAGES.wizard);
    void queryClient.removeQueries({ queryKey: whatsNewKeys.update(id) });
    void navigate('/home', { replace: true });
  }, [isError, id, navigate, queryClient]);

  if (!update || id === null) return <Loader full />;

  const slides = update.gallery;
  const isLast = index >= slides.length - 1;
  const target = updateTarget(update.url, window.location.origin);

  return (
    <div className={styles.screen}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <p className={styles.kicker}>What&apos;s new · Release {update.release}</p>
          <h1 className={styles.title}>{update.name}</h1>
        </div>
        <button type="button" className={styles.close} aria-label="Close" onClick={() => void leave(null)}>
          <CloseIcon size={22} />
        </button>
      </header>
      <Slider
        label={update.name}
        items={slides}
        index={index}
        onIndexChange={setIndex}
        speedMs={SLIDE_SPEED_MS}
        renderSlide={(image, i) => (
          <div className={styles.slide}>
            <img
              className={styles.image}
              src={image.big}
              alt={image.title ?? `${update.name}, ${i + 1} of ${slides.length}`}
              draggable={false}
            />
          </div>
        )}
      />
      <footer className={styles.footer}>
        {!isLast ? (
          <button type="button" className="btn btn-primary btn-block" onClick={() => setIndex(index + 1)}>
            Next
          </button>
        ) : target ? (
          <button type="button" className="btn btn-primary btn-block" onClick={() => void leave(target)}>
            Discover more
          </button>
        ) : (
          <button type="button" className="btn btn-primary btn-block" onClick={() => void leave(null)}>
            Close
          </button>
        )}
      </footer>
    </div>
  );
}
