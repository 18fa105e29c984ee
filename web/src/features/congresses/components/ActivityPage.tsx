import { useState } from 'react';
import { useParams } from 'react-router';
import { MapPinIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useErrorRedirect } from '@/components/page/useErrorRedirect';
import { CalendarButton } from '@/components/programme/CalendarButton';
import { DocumentList } from '@/components/programme/DocumentList';
import { DateRange, Section } from '@/components/programme/Section';
import type { Expert } from '@/components/programme/types';
import { ReadMore } from '@/components/ReadMore';
import { useActivity } from '../api/get-activity';
import styles from './congresses.module.css';
import { FacultyModal } from './FacultyModal';

/** /congresses/activities/{id}: an activity with its faculty and files. */
export default function ActivityPage() {
  const { id } = useParams();
  const query = useActivity(id);
  useErrorRedirect(!id || query.isError, query.error, '/congresses');
  const [expert, setExpert] = useState<Expert | null>(null);
  const activity = query.data;
  const back = activity?.parent_id ? `/congresses/${activity.parent_id}?tab=activities` : '/congresses';

  return (
    <PageFrame title={activity?.title ?? 'Activity'} back={back}>
      {activity ? (
        <>
          {activity.image && <img className={styles.activityImage} src={activity.image} alt="" />}
          <div className={styles.body}>
            <div className={styles.header} style={{ padding: 0 }}>
              <h2>{activity.title}</h2>
              <div className={styles.subtitles}>
                {activity.subtitle1 && <span>{activity.subtitle1}</span>}
                {activity.subtitle2 && <span>{activity.subtitle2}</span>}
                {activity.parent_name && <span>{activity.parent_name}</span>}
              </div>
            </div>
            {activity.location && (
              <p className={styles.subtitles} style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                <MapPinIcon size={18} /> {activity.location}
              </p>
            )}
            <DateRange
              from={activity.start_date}
              fromTime={activity.start_date_time}
              to={activity.end_date}
              toTime={activity.end_date_time}
            />
            <CalendarButton href={activity.calendar} />
            <Section title="Description">
              <ReadMore mode="lines" html={activity.description} />
            </Section>
            {activity.experts && activity.experts.length > 0 && (
              <Section title="Faculties">
                <ul className={styles.faculty}>
                  {activity.experts.map((person) => (
                    <li key={person.name}>
                      <button type="button" className={styles.person} onClick={() => setExpert(person)}>
                        {(person.preview ?? person.image) && (
                          <img src={person.preview ?? person.image ?? undefined} alt="" />
                        )}
                        <span>
                          <strong>{person.name}</strong>
                          {person.subtitle && <small>{person.subtitle}</small>}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              </Section>
            )}
            {activity.files && activity.files.length > 0 && (
              <Section title="Download files">
                <DocumentList files={activity.files} />
              </Section>
            )}
          </div>
          <FacultyModal expert={expert} onClose={() => setExpert(null)} />
        </>
      ) : (
        <Loader />
      )}
    </PageFrame>
  );
}
