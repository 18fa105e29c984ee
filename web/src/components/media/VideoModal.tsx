import { resolveVideo, type VideoSource } from '@/lib/video';
import { Modal } from '../modal/Modal';
import styles from './Media.module.css';
import { StreamVideo } from './StreamVideo';

/** The embedded player of a video (by code, by url, or by the url's last path part). */
export function VideoModal({
  video,
  onClose,
}: {
  video: (VideoSource & { title?: string; label?: string }) | null;
  onClose: () => void;
}) {
  const resolved = video ? resolveVideo(video) : null;
  const title = video?.title ?? video?.label ?? 'Video';
  return (
    <Modal open={video !== null} onClose={onClose} title={title} variant="fullscreen">
      {resolved ? (
        <div className={styles.player} data-testid="video-player" data-video-id={resolved.id ?? ''}>
          {resolved.kind === 'file' ? (
            <StreamVideo src={resolved.src} />
          ) : (
            <iframe
              src={resolved.src}
              title={title}
              className={styles.frame}
              allow="autoplay; fullscreen; picture-in-picture"
              allowFullScreen
            />
          )}
        </div>
      ) : (
        <p className={styles.missing}>This video cannot be played.</p>
      )}
    </Modal>
  );
}
