import styles from './Gallery.module.css';

/** A row of images that scrolls sideways, one image per view with a peek of the next. */
export function Gallery({ images, label }: { images: string[] | null | undefined; label: string }) {
  if (!images || images.length === 0) return null;
  return (
    // Focusable so that a keyboard can scroll it (a scrollable region must be reachable).
    // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- see above
    <ul className={styles.gallery} aria-label={label} tabIndex={0}>
      {images.map((src, index) => (
        <li key={`${src}-${index}`} className={`${styles.item} ${images.length === 1 ? styles.single : ''}`}>
          <img className={styles.image} src={src} alt={`${label} ${index + 1}`} loading="lazy" />
        </li>
      ))}
    </ul>
  );
}
