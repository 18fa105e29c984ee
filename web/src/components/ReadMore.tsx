import { useLayoutEffect, useRef, useState } from 'react';
import { CLAMP_LINES, needsReadMore, READ_MORE_CHARS, readMoreLabel, shortened } from './read-more';
import styles from './ReadMore.module.css';
import { RichText } from './RichText';

export type ReadMoreProps =
  /** Shortened to `chars` characters of text when longer (hotel and transfer texts). */
  | { html: string | null | undefined; chars?: number; mode?: 'chars' }
  /** Clamped to a few lines, with the toggle when the text overflows (descriptions). */
  | { html: string | null | undefined; mode: 'lines'; lines?: number }
  /** A short version first, the long one on 'Read more' (congress description). */
  | { html: string | null | undefined; mode: 'short'; short: string | null | undefined };

function Toggle({ expanded, onClick }: { expanded: boolean; onClick: () => void }) {
  return (
    <button type="button" className={styles.toggle} onClick={onClick} aria-expanded={expanded}>
      {readMoreLabel(expanded)}
    </button>
  );
}

function ByLines({ html, lines }: { html: string | null | undefined; lines: number }) {
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && !expanded) setOverflows(el.scrollHeight > el.clientHeight + 1);
  }, [html, expanded]);
  return (
    <div>
      <div
        ref={box}
        className={expanded ? undefined : styles.clamped}
        style={expanded ? undefined : { WebkitLineClamp: lines, lineClamp: lines }}
      >
        <RichText html={html} />
      </div>
      {(overflows || expanded) && <Toggle expanded={expanded} onClick={() => setExpanded(!expanded)} />}
    </div>
  );
}

/** Rich text with a 'Read more' / 'Read less' toggle. */
export function ReadMore(props: ReadMoreProps) {
  const [expanded, setExpanded] = useState(false);
  if (props.mode === 'lines') return <ByLines html={props.html} lines={props.lines ?? CLAMP_LINES} />;
  if (props.mode === 'short') {
    const hasLong = Boolean(props.html) && props.html !== props.short;
    if (!props.short || !hasLong) return <RichText html={props.html ?? props.short} />;
    return (
      <div>
        <RichText html={expanded ? props.html : props.short} />
        <Toggle expanded={expanded} onClick={() => setExpanded(!expanded)} />
      </div>
    );
  }
  const limit = props.chars ?? READ_MORE_CHARS;
  if (!needsReadMore(props.html, limit)) return <RichText html={props.html} />;
  return (
    <div>
      {expanded ? <RichText html={props.html} /> : <p className={styles.short}>{shortened(props.html, limit)}</p>}
      <Toggle expanded={expanded} onClick={() => setExpanded(!expanded)} />
    </div>
  );
}
