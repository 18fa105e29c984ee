import styles from './RichText.module.css';

/**
 * HTML from the API. The server sanitises every rich text (a short list of
 * tags, safe links) and removes empty paragraphs before storing it.
 */
export function RichText({ html, className }: { html: string; className?: string }) {
  return <div className={`${styles.rich} ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
