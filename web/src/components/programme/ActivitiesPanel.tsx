import type { ReactNode } from 'react';
import { Accordion } from '../accordion/Accordion';
import { MapPinIcon } from '../icons';
import { Avatars } from './Avatars';
import { formatLongDateTime } from '@/lib/dates';
import styles from './programme.module.css';
import type { ActivityEvent, ActivityGroup } from './types';

/** One activity: title, location, date, expert avatars, and the screen's own actions. */
export function ActivityCard({ event, actions }: { event: ActivityEvent; actions?: ReactNode }) {
  return (
    <article className={styles.activity}>
      <strong className={styles.activityTitle}>{event.title}</strong>
      {event.location && (
        <span className={styles.meta}>
          <MapPinIcon size={16} /> {event.location}
        </span>
      )}
      <span className={styles.meta}>
        {formatLongDateTime(event.start_date, event.start_date_time)}
        {event.end_date_time
          ? ` – ${event.end_date === event.start_date ? event.end_date_time : formatLongDateTime(event.end_date, event.end_date_time)}`
          : ''}
      </span>
      <Avatars people={(event.experts ?? []).map((e) => ({ name: e.name, image: e.preview ?? e.image }))} />
      {actions && <div className={styles.actions}>{actions}</div>}
    </article>
  );
}

/** Activities tab: an accordion per label; `actions` gives each event its buttons. */
export function ActivitiesPanel({
  groups,
  actions,
}: {
  groups: ActivityGroup[] | undefined;
  actions: (event: ActivityEvent) => ReactNode;
}) {
  const list = groups ?? [];
  if (list.length === 0) return <p className={styles.muted}>No activities yet.</p>;
  return (
    <Accordion
      initiallyOpen={list[0] ? [`0-${list[0].label}`] : []}
      groups={list.map((group, i) => ({
        key: `${i}-${group.label}`,
        title: group.label,
        count: group.events.length,
        children: group.events.map((event) => <ActivityCard key={event.id} event={event} actions={actions(event)} />),
      }))}
    />
  );
}
