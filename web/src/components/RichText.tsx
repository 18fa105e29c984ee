import { useMemo } from 'react';
import { sanitizeHtml } from '@/lib/sanitize-html';
import styles from './RichText.module.css';

/** Rich text from the server, reduced to simple formatting and safe links. */
export function RichText({ html, className }: { html: string | null | undefined; className?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  if (!clean) return null;
  return <div className={`${styles.rich} ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: clean }} />;
}
