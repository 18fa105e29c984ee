import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { PlayIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { ImageGallery } from '@/components/media/ImageGallery';
import { VideoModal } from '@/components/media/VideoModal';
import { PageFrame } from '@/components/page/PageFrame';
import { useDraft } from '@/lib/hooks/useDraft';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useImages } from '../api/get-images';
import { useVideos } from '../api/get-videos';
import type { MultimediaFilters, MultimediaQuery, MultimediaVideo } from '../api/types';
import styles from './Multimedia.module.css';

type Section = 'videos' | 'images';
const FILTER_KEYS = ['segment', 'category', 'year'] as const;
const FILTER_LABELS = { segment: 'Segment', category: 'Category', year: 'Year' } as const;

/** /multimedia: 'Videos' (default) and 'Images', with a filter modal; both reload on change. */
export default function MultimediaPage() {
  const [params, setParams] = useSearchParams();
  const section: Section = params.get('section') === 'images' ? 'images' : 'videos';
  const applied: MultimediaQuery = {
    segment: params.get('segment') ?? '',
    category: params.get('category') ?? '',
    year: params.get('year') ?? '',
  };
  const videos = useVideos(applied, section === 'videos');
  const images = useImages(applied, section === 'images');
  const active = section === 'videos' ? videos : images;
  useFailureToast(active.error);

  const [draft, setDraft] = useDraft(applied, `${applied.segment}|${applied.category}|${applied.year}`);

  const [video, setVideo] = useState<MultimediaVideo | null>(null);
  const [imageAt, setImageAt] = useState<number | null>(null);

  const setSection = (next: Section) => {
    // Filters belong to a section: switching starts from none.
    setParams(next === 'videos' ? {} : { section: next }, { replace: true });
  };
  const apply = () => {
    const next = new URLSearchParams();
    if (section === 'images') next.set('section', 'images');
    for (const key of FILTER_KEYS) if (draft[key]) next.set(key, draft[key]);
    setParams(next, { replace: true });
  };

  const options: MultimediaFilters | undefined = active.data?.filters;
  const filters = (
    <div className={styles.filters}>
      {FILTER_KEYS.map((key) => (
        <label key={key} className="field">
          <span className="field-label">{FILTER_LABELS[key]}</span>
          <select
            className="input"
            value={draft[key]}
            onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
          >
            <option value="">All</option>
            {(options?.[key] ?? []).map((o) => (
              <option key={String(o.value)} value={String(o.value)}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );

  const hero = section === 'videos' ? videos.data?.hero : null;
  const videoList = videos.data?.list ?? [];
  const imageList = images.data?.list ?? [];

  return (
    <PageFrame
      title="Multimedia"
      back="/menu"
      filters={filters}
      filtersActive={FILTER_KEYS.some((k) => applied[k] !== '')}
      onFiltersDone={apply}
    >
      <div className={styles.page}>
        <div className={styles.tabs} role="tablist" aria-label="Multimedia sections">
          {(['videos', 'images'] as const).map((s) => (
            <button
              key={s}
              type="button"
              role="tab"
              aria-selected={section === s}
              className={`${styles.tab} ${section === s ? styles.active : ''}`}
              onClick={() => setSection(s)}
            >
              {s === 'videos' ? 'Videos' : 'Images'}
            </button>
          ))}
        </div>
        {active.isPending && <Loader />}

        {section === 'videos' && videos.data && (
          <>
            {hero && (
              <button type="button" className={styles.hero} onClick={() => setVideo(hero)} data-testid="hero-video">
                <img src={hero.preview_image} alt="" />
                <span className={styles.play}>
                  <PlayIcon size={28} />
                </span>
                <span className={styles.heroText}>
                  <span className={styles.label}>{hero.label}</span>
                  <span className={styles.title}>{hero.title}</span>
                </span>
              </button>
            )}
            {videoList.length === 0 && !hero && <EmptyState title="No videos to show">Try other filters.</EmptyState>}
            <ul className={styles.videos}>
              {videoList.map((v) => (
                <li key={v.id}>
                  <button type="button" className={styles.video} onClick={() => setVideo(v)}>
                    <img src={v.preview} alt="" loading="lazy" />
                    <span className={styles.label}>{v.label}</span>
                    <span className={styles.title}>{v.title}</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}

        {section === 'images' && images.data && (
          <>
            {imageList.length === 0 && <EmptyState title="No images to show">Try other filters.</EmptyState>}
            <ul className={styles.grid} data-testid="image-grid">
              {imageList.map((m, i) => (
                <li key={m.id}>
                  <button type="button" className={styles.thumb} onClick={() => setImageAt(i)} aria-label={m.label}>
                    <img src={m.preview} alt="" loading="lazy" />
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <VideoModal video={video} onClose={() => setVideo(null)} />
      <ImageGallery
        images={imageList.map((m) => ({ src: m.hd, label: m.label, text: m.text }))}
        index={imageAt}
        onClose={() => setImageAt(null)}
      />
    </PageFrame>
  );
}
