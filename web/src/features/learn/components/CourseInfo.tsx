import { useState } from 'react';
import { Badge } from '@/components/Badge';
import { ClockIcon, ExternalIcon, LanguageIcon, MailIcon, MapPinIcon, PlayIcon } from '@/components/icons';
import { CalendarButton } from '@/components/programme/CalendarButton';
import { DocumentList } from '@/components/programme/DocumentList';
import { Gallery } from '@/components/Gallery';
import { DateRange, Section } from '@/components/programme/Section';
import { ReadMore } from '@/components/ReadMore';
import type { Course } from '../api/types';
import { courseBadge } from '../course-badge';
import { canRegister, hasEnded } from '../course-time';
import {
  courseLocation,
  learnContactHref,
  registrationPlatform,
  speakersToggle,
  visibleSpeakers,
} from '../course-view';
import styles from './learn.module.css';

/** The Info tab of a course (spec 2.20). */
export function CourseInfo({ course, onRegister }: { course: Course; onRegister: () => void }) {
  const [allSpeakers, setAllSpeakers] = useState(false);
  const badge = courseBadge(course.category);
  const speakers = course.speakers ?? [];
  const segments = course.segment ?? [];
  const videos = course.videos ?? [];
  const images = course.images ?? [];
  const toggle = speakersToggle(speakers.length, allSpeakers);
  const outlook = course.save_outlook;
  const ended = hasEnded(course);

  return (
    <div className={styles.stack}>
      <div className={styles.facts}>
        <div className={styles.factRow}>
          <Badge tone={badge.tone}>{badge.label}</Badge>
          <span className={styles.typology}>{course.typology}</span>
        </div>
        {segments.length > 0 && (
          <div className={styles.segments}>
            {segments.map((s) => (
              <img key={s.id} src={s.image ?? undefined} alt="" className={styles.segmentIcon} />
            ))}
          </div>
        )}
        <p className={styles.fact}>
          <MapPinIcon size={18} /> {courseLocation(course.location)}
        </p>
        <p className={styles.fact}>
          <LanguageIcon size={18} /> {course.language}
        </p>
        {course.course_level && (
          <p className={styles.fact}>
            <ClockIcon size={18} /> Level: {course.course_level}
          </p>
        )}
      </div>

      {videos.map((video, i) => (
        <a key={i} className={styles.video} href={video.url ?? undefined} target="_blank" rel="noopener noreferrer">
          {video.preview && <img src={video.preview} alt="" />}
          <span className={styles.videoLabel}>
            <PlayIcon size={16} /> {video.label ?? 'Play'}
          </span>
        </a>
      ))}

      {outlook && (
        <div className={styles.dates}>
          <DateRange
            from={outlook.start_date.date}
            fromTime={outlook.start_date.time}
            to={outlook.end_date.date}
            toTime={outlook.end_date.time}
          />
          {outlook.link && <CalendarButton href={outlook.link} />}
        </div>
      )}

      <div className={styles.actionsBlock}>
        {ended && (
          <p className={styles.endedNote} data-testid="course-ended-note">
            This course has taken place: registration is closed.
          </p>
        )}
        {canRegister(course) && (
          <button type="button" className="btn btn-primary btn-block" onClick={onRegister}>
            Register to this course
          </button>
        )}
        {course.evenium && !ended && (
          <a className="btn btn-outline btn-block" href={course.evenium} target="_blank" rel="noopener noreferrer">
            <ExternalIcon size={18} /> Registration open on {registrationPlatform(course.evenium)}
          </a>
        )}
        {course.show_learn_contact && course.learn_contact && (
          <a className="btn btn-ghost btn-block" href={learnContactHref(course.learn_contact, course.title)}>
            <MailIcon size={18} /> Ask for more information
          </a>
        )}
      </div>

      {course.description && (
        <Section title="Description">
          <ReadMore mode="lines" html={course.description} />
        </Section>
      )}

      {speakers.length > 0 && (
        <Section title="Speakers">
          <ul className={styles.speakers}>
            {visibleSpeakers(speakers, allSpeakers).map((s) => (
              <li key={s.name} className={styles.speaker}>
                {s.preview ? (
                  <img src={s.preview} alt="" />
                ) : (
                  <span className={styles.speakerInitial}>{s.name.charAt(0)}</span>
                )}
                <span>
                  <strong>{s.name}</strong>
                  {s.country && <small>{s.country}</small>}
                </span>
              </li>
            ))}
          </ul>
          {toggle && (
            <button type="button" className={styles.viewAll} onClick={() => setAllSpeakers(!allSpeakers)}>
              {toggle}
            </button>
          )}
        </Section>
      )}

      {images.length > 0 && (
        <Section title="Images">
          <Gallery images={images} label="Course" />
        </Section>
      )}

      {course.files.length > 0 && (
        <Section title="Documents">
          <DocumentList files={course.files} />
        </Section>
      )}
    </div>
  );
}
