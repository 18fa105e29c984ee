import { useEffect, useRef, useState } from 'react';
import { isHlsStream } from '@/lib/video';
import styles from './Media.module.css';

/**
 * A video file the browser plays itself. An HLS stream (`.m3u8`) plays natively where the
 * browser can (Safari, iOS); elsewhere hls.js is fetched on first use, so no other screen
 * carries it.
 */
export function StreamVideo({ src }: { src: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (!isHlsStream(src) || video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = src;
      return;
    }
    let destroyed = false;
    let destroy: (() => void) | null = null;
    void import('hls.js')
      .then(({ default: Hls }) => {
        if (destroyed) return;
        if (!Hls.isSupported()) {
          setFailed(true);
          return;
        }
        const hls = new Hls();
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) setFailed(true);
        });
        hls.loadSource(src);
        hls.attachMedia(video);
        destroy = () => hls.destroy();
      })
      .catch(() => setFailed(true));
    return () => {
      destroyed = true;
      destroy?.();
    };
  }, [src]);

  if (failed) return <p className={styles.missing}>This video cannot be played.</p>;
  // The streams come without caption tracks; there is nothing to point a <track> at.
  // eslint-disable-next-line jsx-a11y-x/media-has-caption -- see above
  return <video ref={ref} controls autoPlay playsInline className={styles.frame} data-testid="stream-video" />;
}
