import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useErrorRedirect } from '@/components/page/useErrorRedirect';
import { Tabs } from '@/components/tabs/Tabs';
import { useCourse } from '../api/get-course';
import { hasEnded } from '../course-time';
import { CourseAgenda } from './CourseAgenda';
import { EndedMarker } from './EndedMarker';
import { CourseInfo } from './CourseInfo';
import styles from './learn.module.css';
import { RegistrationModal } from './RegistrationModal';

const TABS = [
  { key: 'info', label: 'Info' },
  { key: 'agenda', label: 'Agenda' },
];

/** /learn/{id} and /learn/list/{id}: a course with its Info and Agenda (when show_tabs). */
export default function CourseDetailPage() {
  const { id } = useParams();
  const query = useCourse(id);
  useErrorRedirect(!id || query.isError, query.error, '/learn');
  const [search, setSearch] = useSearchParams();
  // The form is mounted on each opening, with the day chosen in the agenda pre-selected.
  const [registration, setRegistration] = useState<{ day: string | null } | null>(null);
  const course = query.data;
  const tab = course?.show_tabs && search.get('tab') === 'agenda' ? 'agenda' : 'info';

  const openForm = (day: string | null) => setRegistration({ day });

  return (
    <PageFrame title="Medical Education" back="/learn" share>
      {course ? (
        <>
          <header className={styles.detailHeader}>
            {course.print_date && (
              <span className={styles.date}>
                {course.print_date} {hasEnded(course) && <EndedMarker />}
              </span>
            )}
            <h2>{course.title}</h2>
            {course.subtitle && <p>{course.subtitle}</p>}
          </header>
          {course.show_tabs ? (
            <Tabs
              tabs={TABS}
              active={tab}
              label="Course"
              onChange={(key) => {
                const next = new URLSearchParams(search);
                next.set('tab', key);
                setSearch(next, { replace: true });
              }}
            >
              {tab === 'agenda' ? (
                <CourseAgenda course={course} onRegister={openForm} />
              ) : (
                <CourseInfo course={course} onRegister={() => openForm(null)} />
              )}
            </Tabs>
          ) : (
            <div className={styles.plain}>
              <CourseInfo course={course} onRegister={() => openForm(null)} />
            </div>
          )}
          {registration && (
            <RegistrationModal course={course} open day={registration.day} onClose={() => setRegistration(null)} />
          )}
        </>
      ) : (
        <Loader />
      )}
    </PageFrame>
  );
}
