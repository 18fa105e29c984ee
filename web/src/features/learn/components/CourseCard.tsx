import { Link } from 'react-router';
import { Badge } from '@/components/Badge';
import { LanguageIcon } from '@/components/icons';
import { Avatars } from '@/components/programme/Avatars';
import type { CourseRow } from '../api/types';
import { courseBadge } from '../course-badge';
import styles from './learn.module.css';

/** A course of the calendar: badge, typology, title, subtitle, date, language, segments, speakers. */
export function CourseCard({ course }: { course: CourseRow }) {
  const badge = courseBadge(course.category);
  return (
    <li>
      <Link className={styles.card} to={`/learn/${course.id}`} data-testid="course-card">
        <div className={styles.cardTop}>
          <Badge tone={badge.tone}>{badge.label}</Badge>
          <span className={styles.typology}>{course.typology}</span>
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
