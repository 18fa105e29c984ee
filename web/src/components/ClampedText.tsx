import { useLayoutEffect, useRef, useState } from 'react';
import { DESCRIPTION_CLAMP_LINES, readMoreLabel } from '@/lib/text';
import { RichText } from './RichText';
import styles from './ClampedText.module.css';

/** Rich text clamped to 3 lines with a 'Read more' / 'Read less' toggle (spec 2.17, 9). */
export function ClampedText({ html, lines = DESCRIPTION_CLAMP_LINES }: { html: string; lines?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflowing, setOverflowing] = useState(false);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el || expanded) return;
    const measure = () => setOverflowing(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(measure) : null;
    observer?.observe(el);
    return () => observer?.disconnect();
  }, [html, expanded]);

  const label = readMoreLabel(expanded, overflowing);
  return (
    <div>
      <div
        ref={box}
        className={expanded ? undefined : styles.clamped}
        style={expanded ? undefined : { WebkitLineClamp: lines, lineClamp: lines }}
        data-testid="clamped-text"
      >
        <RichText html={html} />
      </div>
      {label && (
        <button type="button" className={styles.toggle} onClick={() => setExpanded((v) => !v)}>
          {label}
        </button>
      )}
    </div>
  );
}
