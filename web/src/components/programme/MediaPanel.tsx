import { Accordion } from '../accordion/Accordion';
import { PlayIcon } from '../icons';
import { videoUrl } from './activity';
import styles from './programme.module.css';
import { Section } from './Section';
import type { MediaContent, Video } from './types';

function Images({ images }: { images: string[] }) {
  return (
    <div className={styles.grid}>
      {images.map((src, i) => (
        <a key={`${src}-${i}`} href={src} target="_blank" rel="noopener noreferrer">
          <img src={src} alt="" loading="lazy" />
        </a>
      ))}
    </div>
  );
}

function Videos({ videos }: { videos: Video[] }) {
  return (
    <div className={styles.videos}>
      {videos.map((video, i) => {
        const href = videoUrl(video);
        return (
          <a key={i} className={styles.video} href={href ?? undefined} target="_blank" rel="noopener noreferrer">
            <span className={styles.videoPreview}>
              {video.preview && <img src={video.preview} alt="" loading="lazy" />}
              <span className={styles.videoChip}>
                <PlayIcon size={14} />
              </span>
            </span>
            <span>
              <strong>{video.title ?? video.label}</strong>
              {video.title && video.label && <span className={styles.muted}> · {video.label}</span>}
            </span>
          </a>
        );
      })}
    </div>
  );
}

/** Media tab: accordions of images and videos, then the general images and videos. */
export function MediaPanel({ content }: { content: MediaContent }) {
  const accordions = content.accordions ?? [];
  const images = content.general_images ?? [];
  const videos = content.general_videos ?? [];
  return (
    <div className={styles.stack}>
      {accordions.length > 0 && (
        <Accordion
          groups={accordions.map((a, i) => ({
            key: `${i}-${a.title}`,
            title: a.title,
            count: (a.images?.length ?? 0) + (a.videos?.length ?? 0),
            children: (
              <>
                {a.images && a.images.length > 0 && <Images images={a.images} />}
                {a.videos && a.videos.length > 0 && <Videos videos={a.videos} />}
              </>
            ),
          }))}
        />
      )}
      {images.length > 0 && (
        <Section title="Images">
          <Images images={images} />
        </Section>
      )}
      {videos.length > 0 && (
        <Section title="Videos">
          <Videos videos={videos} />
        </Section>
      )}
    </div>
  );
}
