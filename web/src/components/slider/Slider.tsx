import { useRef, type ReactNode } from 'react';
import styles from './Slider.module.css';

/** Slide transition of the spec (ms). */
export const SLIDE_SPEED_MS = 400;
const SWIPE_DISTANCE = 40;

export interface SliderProps<T> {
  items: readonly T[];
  index: number;
  onIndexChange: (index: number) => void;
  renderSlide: (item: T, index: number) => ReactNode;
  /** Accessible name of the slider. */
  label: string;
  speedMs?: number;
}

/** Full-width slides moved by transform; swipe or drag to change, dots to jump. */
export function Slider<T>({
  items,
  index,
  onIndexChange,
  renderSlide,
  label,
  speedMs = SLIDE_SPEED_MS,
}: SliderProps<T>) {
  const start = useRef<number | null>(null);
  const last = items.length - 1;
  const go = (next: number) => onIndexChange(Math.max(0, Math.min(last, next)));

  return (
    <div className={styles.slider} role="region" aria-roledescription="carousel" aria-label={label}>
      {/* Swipe for touch, arrow keys once focused: the dots below offer the same as buttons. */}
      {/* eslint-disable-next-line jsx-a11y-x/no-static-element-interactions -- see above */}
      <div
        className={styles.viewport}
        onPointerDown={(event) => {
          start.current = event.clientX;
        }}
        onPointerUp={(event) => {
          if (start.current === null) return;
          const dx = event.clientX - start.current;
          start.current = null;
          if (dx <= -SWIPE_DISTANCE) go(index + 1);
          else if (dx >= SWIPE_DISTANCE) go(index - 1);
        }}
        onPointerCancel={() => (start.current = null)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight') go(index + 1);
          if (event.key === 'ArrowLeft') go(index - 1);
        }}
        // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- see above
        tabIndex={0}
      >
        <div
          className={styles.track}
          style={{ transform: `translateX(${-index * 100}%)`, transitionDuration: `${speedMs}ms` }}
        >
          {items.map((item, i) => (
            <div
              key={i}
              className={styles.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${items.length}`}
              aria-hidden={i !== index}
            >
              {renderSlide(item, i)}
            </div>
          ))}
        </div>
      </div>
      {items.length > 1 && (
        <div className={styles.dots}>
          {items.map((_, i) => (
            <button
              key={i}
              type="button"
              className={`${styles.dot} ${i === index ? styles.current : ''}`}
              aria-label={`Go to slide ${i + 1}`}
              aria-current={i === index}
              onClick={() => go(i)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
