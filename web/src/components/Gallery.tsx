import styles from './Gallery.module.css';

/** A row of images that scrolls sideways, one image per view with a peek of the next. */
export function Gallery({ images, label }: { images: string[] | null | undefined; label: string }) {
  if (!images || images.length === 0) return null;
  return (
    <div className={styles.gallery} role="list" aria-label={label}>
      {images.map((src, index) => (
        <img
          key={`${src}-${index}`}
          role="listitem"
          className={`${styles.image} ${images.length === 1 ? styles.single : ''}`}
          src={src}
          alt={`${label} ${index + 1}`}
          loading="lazy"
        />
      ))}
    </div>
  );
}
