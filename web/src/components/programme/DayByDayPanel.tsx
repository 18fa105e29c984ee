import { RichText } from '../RichText';
import { CalendarButton } from './CalendarButton';
import { formatWeekdayDate } from '@/lib/dates';
import styles from './programme.module.css';
import type { DayContent } from './types';

/** Day by day tab: each date with its timed events. */
export function DayByDayPanel({ content }: { content: DayContent }) {
  const days = content.events ?? [];
  if (days.length === 0) return <p className={styles.muted}>The programme will be published soon.</p>;
  return (
    <div className={styles.stack}>
      {days.map((day) => (
        <section key={day.date} className={styles.day}>
          <h3 className={styles.groupTitle}>{formatWeekdayDate(day.date)}</h3>
          <ol className={styles.timeline}>
            {(day.events ?? []).map((event, i) => (
              <li key={`${event.time}-${i}`} className={styles.timelineItem}>
                <span className={styles.time}>{event.time}</span>
                <div className={styles.timelineBody}>
                  <strong>{event.title}</strong>
                  {event.subtitle && <span className={styles.muted}>{event.subtitle}</span>}
                  <RichText html={event.description} />
                  {event.calendar && <CalendarButton href={event.calendar} />}
                </div>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
