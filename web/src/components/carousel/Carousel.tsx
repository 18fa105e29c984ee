import { useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRightIcon } from '../icons';
import { animateScroll, CAROUSEL_DRAG_FACTOR } from './animate-scroll';
import styles from './Carousel.module.css';

export interface CarouselProps {
  title: string;
  /** Link of the section title ("See all"). */
  to?: string;
  /** Accent the title (e.g. the red US section). */
  accent?: boolean;
  children: ReactNode;
}

/**
 * Horizontal list of cards: native scrolling with snap points on touch,
 * drag-to-scroll (x3) with the mouse, and arrow buttons animated in 500 ms.
 */
export function Carousel({ title, to, accent = false, children }: CarouselProps) {
  const track = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; left: number; moved: boolean } | null>(null);

  const page = (direction: 1 | -1) => {
    const el = track.current;
    if (!el) return;
    animateScroll(el, el.scrollLeft + direction * el.clientWidth * 0.8);
  };

  return (
    <section className={styles.section} aria-label={title}>
      <div className={styles.head}>
        <h2 className={`${styles.title} ${accent ? styles.accent : ''}`}>{title}</h2>
        {to && (
          <Link className={styles.all} to={to}>
            See all <ChevronRightIcon size={16} />
          </Link>
        )}
        <div className={styles.arrows}>
          <button type="button" className={styles.arrow} onClick={() => page(-1)} aria-label={`Previous ${title}`}>
            <ChevronRightIcon size={18} style={{ transform: 'scaleX(-1)' }} />
          </button>
          <button type="button" className={styles.arrow} onClick={() => page(1)} aria-label={`Next ${title}`}>
            <ChevronRightIcon size={18} />
          </button>
        </div>
      </div>
      <div
        ref={track}
        className={styles.track}
        onPointerDown={(event) => {
          if (event.pointerType !== 'mouse' || !track.current) return;
          drag.current = { x: event.clientX, left: track.current.scrollLeft, moved: false };
        }}
        onPointerMove={(event) => {
          const state = drag.current;
          const el = track.current;
          if (!state || !el) return;
          const delta = event.clientX - state.x;
          if (Math.abs(delta) > 4) {
            state.moved = true;
            el.style.scrollSnapType = 'none';
          }
          el.scrollLeft = state.left - delta * CAROUSEL_DRAG_FACTOR;
        }}
        onPointerUp={() => {
          if (track.current) track.current.style.scrollSnapType = '';
          setTimeout(() => (drag.current = null), 0);
        }}
        onPointerLeave={() => {
          if (track.current) track.current.style.scrollSnapType = '';
          drag.current = null;
        }}
        onClickCapture={(event) => {
          // A drag is not a tap on the card under the pointer.
          if (drag.current?.moved) {
            event.preventDefault();
            event.stopPropagation();
          }
        }}
      >
        {children}
      </div>
    </section>
  );
}
