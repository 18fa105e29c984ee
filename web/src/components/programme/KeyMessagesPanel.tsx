import { Gallery } from '../Gallery';
import { RichText } from '../RichText';
import styles from './programme.module.css';
import { Section } from './Section';
import type { KeyMessage } from './types';

/** Key messages (testimonials in training): title, description and images. */
export function KeyMessagesPanel({ messages }: { messages: KeyMessage[] | undefined }) {
  if (!messages || messages.length === 0) return <p className={styles.muted}>No key messages yet.</p>;
  return (
    <div className={styles.stack}>
      {messages.map((message, i) => (
        <Section key={`${message.title}-${i}`} title={message.title}>
          <RichText html={message.description} />
          <Gallery images={message.images} label={message.title} />
        </Section>
      ))}
    </div>
  );
}
