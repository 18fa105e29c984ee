import { GlobeIcon, MailIcon, PhoneIcon } from '../icons';
import { RichText } from '../RichText';
import styles from './programme.module.css';
import { Section } from './Section';
import type { ContactCard, ContactsContent } from './types';

function Lines({ phone, email, website }: { phone?: string | null; email?: string | null; website?: string | null }) {
  return (
    <div className={styles.links}>
      {phone && (
        <a className={styles.link} href={`tel:${phone.replace(/\s+/g, '')}`}>
          <PhoneIcon size={18} /> {phone}
        </a>
      )}
      {email && (
        <a className={styles.link} href={`mailto:${email}`}>
          <MailIcon size={18} /> {email}
        </a>
      )}
      {website && (
        <a className={styles.link} href={website} target="_blank" rel="noopener noreferrer">
          <GlobeIcon size={18} /> {website.replace(/^https?:\/\//, '')}
        </a>
      )}
    </div>
  );
}

function Card({ title, card }: { title: string; card: ContactCard | undefined }) {
  if (!card || !(card.name || card.address || card.phone || card.email)) return null;
  return (
    <Section title={title}>
      {card.name && <p className={styles.strong}>{card.name}</p>}
      <RichText html={card.address} />
      <Lines phone={card.phone} email={card.email} website={card.website} />
    </Section>
  );
}

/** Contacts tab: Main Contact, website, venue, hotel and staff. */
export function ContactsPanel({ content }: { content: ContactsContent }) {
  return (
    <div className={styles.stack}>
      {(content.name || content.phone || content.email) && (
        <Section title="Main Contact">
          {content.name && <p className={styles.strong}>{content.name}</p>}
          <Lines phone={content.phone} email={content.email} />
        </Section>
      )}
      {content.website && (
        <Section title="Website">
          <Lines website={content.website} />
        </Section>
      )}
      <Card title="Venue" card={content.congress_venue ?? undefined} />
      <Card title="Hotel" card={content.hotel ?? undefined} />
      {content.staff && content.staff.length > 0 && (
        <Section title="Staff">
          <ul className={styles.staff}>
            {content.staff.map((person) => (
              <li key={person.name}>
                <strong>{person.name}</strong>
                {person.role && <span className={styles.muted}>{person.role}</span>}
                <Lines phone={person.phone} email={person.email} />
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  );
}
