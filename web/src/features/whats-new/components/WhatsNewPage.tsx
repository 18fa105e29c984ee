import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PageFrame } from '@/components/page/PageFrame';
import { refreshBadges } from '@/lib/api/badges';
import { whatsNewKeys } from '../api/keys';
import { NotificationsSection } from './NotificationsSection';
import { UpdatesSection } from './UpdatesSection';
import styles from './WhatsNewPage.module.css';

type Section = 'notifications' | 'updates';

const SECTIONS: readonly { value: Section; label: string }[] = [
  { value: 'notifications', label: 'Notifications' },
  { value: 'updates', label: 'App updates' },
];

/** What's New (spec 2.9): notifications and app updates, the section in `?section=`. */
export default function WhatsNewPage() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const section: Section = params.get('section') === 'updates' ? 'updates' : 'notifications';

  const choose = (value: Section) => {
    if (value !== section) setParams({ section: value }, { replace: true });
  };

  const onRefresh = useCallback(
    () => Promise.all([queryClient.invalidateQueries({ queryKey: whatsNewKeys.all }), refreshBadges()]),
    [queryClient],
  );

  return (
    <PageFrame title="What's New" back="/home" onRefresh={onRefresh}>
      <div className={styles.chips} role="tablist" aria-label="What's New sections">
        {SECTIONS.map(({ value, label }) => (
          <button
            key={value}
            type="button"
            role="tab"
            id={`whats-new-${value}`}
            aria-selected={value === section}
            aria-controls="whats-new-panel"
            className={`${styles.chip} ${value === section ? styles.chipOn : ''}`}
            onClick={() => choose(value)}
          >
            {label}
          </button>
        ))}
      </div>
      <section id="whats-new-panel" role="tabpanel" aria-labelledby={`whats-new-${section}`}>
        {section === 'notifications' ? <NotificationsSection /> : <UpdatesSection />}
      </section>
    </PageFrame>
  );
}
