import { useDocumentOpener } from '../documents/useDocumentOpener';
import { DownloadIcon, MapPinIcon } from '../icons';
import { Gallery } from '../Gallery';
import { ReadMore } from '../ReadMore';
import { RichText } from '../RichText';
import { boothOf } from './activity';
import { CalendarButton } from './CalendarButton';
import styles from './programme.module.css';
import { DateRange, Section } from './Section';
import type { DetailsContent } from './types';

/** Details tab: venue, 'Timing & Dates', booth, 'Main Topics' (training), 'Useful information'. */
export function DetailsPanel({ content }: { content: DetailsContent }) {
  const venue = content.congress_venue;
  const timing = content.timing_dates;
  const booth = boothOf(content);
  // The floor plan is a served document: it opens in the in-app viewer with the session token.
  const opener = useDocumentOpener();
  return (
    <div className={styles.stack}>
      {opener.element}
      {venue && (
        <Section title="Venue">
          {venue.name && <p className={styles.strong}>{venue.name}</p>}
          <Gallery images={venue.gallery} label="Venue" />
          <RichText html={venue.description} />
          <div className={styles.links}>
            {venue.link_googlemaps && (
              <a className={styles.link} href={venue.link_googlemaps} target="_blank" rel="noopener noreferrer">
                <MapPinIcon size={18} /> {venue.link_googlemaps_label || 'Open in Maps'}
              </a>
            )}
            {venue.link_download && (
              <button
                type="button"
                className={styles.link}
                onClick={() =>
                  void opener.open({
                    title: venue.link_download_label || 'Floor plan',
                    url: venue.link_download ?? '',
                  })
                }
              >
                <DownloadIcon size={18} /> {venue.link_download_label || 'Download'}
              </button>
            )}
          </div>
        </Section>
      )}
      {timing && (
        <Section title="Timing & Dates">
          <DateRange from={timing.from_date} fromTime={timing.from_time} to={timing.to_date} toTime={timing.to_time} />
          <CalendarButton href={timing.calendar} />
          {timing.description_short ? (
            <ReadMore mode="short" short={timing.description_short} html={timing.description} />
          ) : (
            <RichText html={timing.description} />
          )}
        </Section>
      )}
      {booth && (
        <Section title={booth.title}>
          <Gallery images={booth.booth.gallery} label={booth.title} />
          <RichText html={booth.booth.description} />
        </Section>
      )}
      {content.main_topics?.description && (
        <Section title="Main Topics">
          <RichText html={content.main_topics.description} />
        </Section>
      )}
      {content.useful_information?.description && (
        <Section title="Useful information">
          <RichText html={content.useful_information.description} />
        </Section>
      )}
    </div>
  );
}
