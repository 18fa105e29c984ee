import { Accordion } from '@/components/accordion/Accordion';
import { DocumentList } from '@/components/programme/DocumentList';
import { RichText } from '@/components/RichText';
import type { Course } from '../api/types';
import styles from './learn.module.css';

/** The Agenda tab: one accordion per day, each with a register button passing the day. */
export function CourseAgenda({ course, onRegister }: { course: Course; onRegister: (day: string) => void }) {
  if (course.days.length === 0) return <p className={styles.muted}>The agenda will be published soon.</p>;
  return (
    <Accordion
      initiallyOpen={course.days[0] ? [course.days[0].date_value] : []}
      groups={course.days.map((day) => ({
        key: day.date_value,
        title: day.date_text,
        count: 1,
        children: (
          <div className={styles.day}>
            <p className={styles.dayTime}>{day.time}</p>
            <strong>{day.title}</strong>
            {day.speakers && day.speakers.length > 0 && <p className={styles.muted}>{day.speakers.join(', ')}</p>}
            {course.show_register && (
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
