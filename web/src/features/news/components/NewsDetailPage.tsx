import { useParams } from 'react-router';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { RichText } from '@/components/RichText';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { formatShortDate } from '@/lib/dates';
import { useNewsDetail } from '../api/get-news-detail';
import styles from './News.module.css';

/** /news/{id}: preview image and the sanitised rich text; back goes to /news. */
export default function NewsDetailPage() {
  const raw = useParams().id;
  const id = raw && /^\d+$/.test(raw) ? raw : null;
  const query = useNewsDetail(id);
  useFailureToast(query.error, { redirectTo: '/news', missingId: id === null });
  const n = query.data;

  return (
    <PageFrame title="News" back="/news" share>
      <div className={styles.page}>
        {query.isPending && id && <Loader />}
        {n && (
          <article className={styles.page} style={{ padding: 0 }}>
            <img className={styles.hero} src={n.preview} alt="" />
            <time className={styles.date} dateTime={n.date}>
              {formatShortDate(n.date)} · {n.category}
            </time>
            <h2 className={styles.heading}>{n.title}</h2>
            <RichText html={n.description} />
          </article>
        )}
      </div>
    </PageFrame>
  );
}
