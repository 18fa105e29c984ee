import { Accordion } from '@/components/accordion/Accordion';
import { DocumentList } from '@/components/programme/DocumentList';
import { RichText } from '@/components/RichText';
import type { Course } from '../api/types';
import { hasEnded } from '../course-time';
import { EndedMarker } from './EndedMarker';
import styles from './learn.module.css';

/** The Agenda tab: one accordion per day, each with a register button passing the day. */
export function CourseAgenda({ course, onRegister }: { course: Course; onRegister: (day: string) => void }) {
  if (course.days.length === 0) return <p className={styles.muted}>The agenda will be published soon.</p>;
  // The agenda opens on the first day still to come (the last day when all have taken place).
  const firstOpen = course.days.find((d) => !hasEnded(d)) ?? course.days[course.days.length - 1];
  return (
    <Accordion
      initiallyOpen={firstOpen ? [firstOpen.date_value] : []}
      groups={course.days.map((day) => ({
        key: day.date_value,
        title: hasEnded(day) ? `${day.date_text} (ended)` : day.date_text,
        count: 1,
        children: (
          <div className={styles.day}>
            <p className={styles.dayTime}>
              {day.time} {hasEnded(day) && <EndedMarker />}
            </p>
            <strong>{day.title}</strong>
            {day.speakers && day.speakers.length > 0 && <p className={styles.muted}>{day.speakers.join(', ')}</p>}
            {course.show_register && !hasEnded(course) && !hasEnded(day) && (
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => onRegister(day.date_value)}
                aria-label={`Register to ${day.date_text}`}
              >
                Register
              </button>
            )}
            <RichText html={day.description} />
            {day.files.length > 0 && <DocumentList files={day.files} />}
          </div>
        ),
      }))}
    />
  );
}
