import { Link } from 'react-router';
import { Badge } from '@/components/Badge';
import { LanguageIcon } from '@/components/icons';
import { Avatars } from '@/components/programme/Avatars';
import type { CourseRow } from '../api/types';
import { courseBadge } from '../course-badge';
import { hasEnded } from '../course-time';
import { EndedMarker } from './EndedMarker';
import styles from './learn.module.css';

/** A course of the calendar: badge, typology, title, subtitle, date, language, segments, speakers. */
export function CourseCard({ course, upcoming }: { course: CourseRow; upcoming?: boolean }) {
  const badge = courseBadge(course.category);
  const ended = hasEnded(course);
  return (
    <li data-upcoming={upcoming ? 'first' : undefined}>
      <Link
        className={`${styles.card} ${ended ? styles.cardEnded : ''}`}
        to={`/learn/${course.id}`}
        data-testid="course-card"
        data-ended={ended ? 'true' : 'false'}
      >
        <div className={styles.cardTop}>
          <Badge tone={badge.tone}>{badge.label}</Badge>
          <span className={styles.typology}>{course.typology}</span>
          {ended && <EndedMarker />}
        </div>
        <strong className={styles.cardTitle}>{course.title}</strong>
        {course.subtitle && <span className={styles.cardSubtitle}>{course.subtitle}</span>}
        <div className={styles.cardMeta}>
          <span className={styles.date}>{course.print_date}</span>
          <span className={styles.language}>
            <LanguageIcon size={15} /> {course.language}
          </span>
        </div>
        <div className={styles.cardBottom}>
          <span className={styles.segments}>
            {(course.segment ?? []).map((s) => (
              <img key={s.id} src={s.image ?? undefined} alt="" className={styles.segmentIcon} />
            ))}
          </span>
          <Avatars people={course.speakers} max={4} />
        </div>
      </Link>
    </li>
  );
}
