import { ExternalIcon, LinkIcon, PlayIcon } from '../icons';
import { ReadMore } from '../ReadMore';
import { RichText } from '../RichText';
import { CalendarButton } from './CalendarButton';
import styles from './programme.module.css';
import { DateRange, Section } from './Section';
import type { InfoContent } from './types';

export interface InfoPanelProps {
  content: InfoContent;
  name: string;
  subtitle?: string;
  /** Training: the text over the website link, the website and the registration link. */
  website?: { text?: string; website?: string; link?: string };
}

/** Info tab: intro video or image, name, From/To, 'Save in calendar', link, description. */
export function InfoPanel({ content, name, subtitle, website }: InfoPanelProps) {
  const video = content.intro_video;
  return (
    <div className={styles.stack}>
      {video?.preview_image ? (
        <a
          className={styles.hero}
          href={video.url ?? undefined}
          target="_blank"
          rel="noopener noreferrer"
          aria-label="Play the intro video"
        >
          <img src={video.preview_image} alt="" />
          <span className={styles.videoChip}>
            <PlayIcon size={16} /> Intro video
          </span>
        </a>
      ) : (
        content.image && <img className={styles.heroImage} src={content.image} alt="" />
      )}
      <div>
        <h2 className={styles.name}>{content.name ?? name}</h2>
        {(content.subtitle ?? subtitle) && <p className={styles.subtitle}>{content.subtitle ?? subtitle}</p>}
      </div>
      <DateRange
        from={content.first_date}
        fromTime={content.first_date_time}
        to={content.last_date}
        toTime={content.last_date_time}
      />
      <CalendarButton href={content.calendar} />
      {content.link && (
        <a className={styles.link} href={content.link} target="_blank" rel="noopener noreferrer">
          <ExternalIcon size={18} /> {content.link.replace(/^https?:\/\//, '')}
        </a>
      )}
      {content.description_short ? (
        <ReadMore mode="short" short={content.description_short} html={content.description} />
      ) : (
        <ReadMore mode="lines" html={content.description} />
      )}
      {content.registration?.link && (
        <Section title="Link for Registration">
          {content.registration.text && <p className={styles.text}>{content.registration.text}</p>}
          <a
            className="btn btn-primary btn-block"
            href={content.registration.link}
            target="_blank"
            rel="noopener noreferrer"
          >
            <LinkIcon size={18} /> Register
          </a>
        </Section>
      )}
      {website && (website.website || website.link) && (
        <Section title="Website">
          {website.text && <RichText html={website.text} />}
          {website.website && (
            <a className={styles.link} href={website.website} target="_blank" rel="noopener noreferrer">
              <ExternalIcon size={18} /> {website.website.replace(/^https?:\/\//, '')}
            </a>
          )}
          {website.link && website.link !== content.registration?.link && (
            <a className={styles.link} href={website.link} target="_blank" rel="noopener noreferrer">
              <LinkIcon size={18} /> {website.link.replace(/^https?:\/\//, '')}
            </a>
          )}
        </Section>
      )}
    </div>
  );
}
