import { useState } from 'react';
import { ChevronRightIcon } from '../icons';
import { Modal } from '../modal/Modal';
import styles from './Media.module.css';

export interface GalleryImage {
  src: string;
  label?: string;
  text?: string;
}

const ZOOMS = [1, 2, 3] as const;

/**
 * Full-screen image gallery with zoom (tap the image or use +/-) and previous /
 * next. Downloading is offered only by the native app, so there is no button here.
 */
export function ImageGallery({
  images,
  index,
  onClose,
}: {
  images: GalleryImage[];
  index: number | null;
  onClose: () => void;
}) {
  const [current, setCurrent] = useState(index ?? 0);
  const [zoom, setZoom] = useState(0);
  const [openedAt, setOpenedAt] = useState(index);
  if (openedAt !== index) {
    // A new opening starts at the tapped image, unzoomed.
    setOpenedAt(index);
    if (index !== null) {
      setCurrent(index);
      setZoom(0);
    }
  }

  const image = images[current];
  const go = (step: number) => {
    setZoom(0);
    setCurrent((c) => (c + step + images.length) % images.length);
  };

  return (
    <Modal
      open={index !== null && image !== undefined}
      onClose={onClose}
      title={image?.label ?? 'Image'}
      variant="fullscreen"
    >
      {image && (
        <div className={styles.gallery} data-testid="image-gallery">
          <div className={styles.stage}>
            {/* Tapping zooms for touch; the Zoom in / Zoom out buttons do the same from the keyboard. */}
            {/* eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-noninteractive-element-interactions -- see above */}
            <img
              src={image.src}
              alt={image.label ?? ''}
              className={styles.zoomable}
              style={{ transform: `scale(${ZOOMS[zoom]})` }}
              onClick={() => setZoom((z) => (z + 1) % ZOOMS.length)}
              data-zoom={ZOOMS[zoom]}
            />
          </div>
          {image.text && <p className={styles.caption}>{image.text}</p>}
          <div className={styles.controls}>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => go(-1)}
              aria-label="Previous image"
              disabled={images.length < 2}
            >
              <ChevronRightIcon size={18} style={{ transform: 'scaleX(-1)' }} />
            </button>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => setZoom((z) => Math.max(0, z - 1))}
              aria-label="Zoom out"
              disabled={zoom === 0}
            >
              −
            </button>
            <span className={styles.counter}>
              {current + 1} / {images.length}
            </span>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
              aria-label="Zoom in"
              disabled={zoom === ZOOMS.length - 1}
            >
              +
            </button>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => go(1)}
              aria-label="Next image"
              disabled={images.length < 2}
            >
              <ChevronRightIcon size={18} />
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
