import { Link } from 'react-router';
import { Carousel } from '@/components/carousel/Carousel';
import { formatShortDate } from '@/lib/dates';
import styles from './HomeCarousels.module.css';

/** Home news carousel, shown only when there is news; items go to /news/{id}. */
export interface NewsCard {
  id: number;
  title: string;
  date: string;
  preview: string;
}

export function NewsCarousel({ news }: { news: NewsCard[] }) {
  if (news.length === 0) return null;
  return (
    <Carousel title="News" to="/news">
      {news.map((n) => (
        <Link key={n.id} to={`/news/${n.id}`} className={styles.news} data-testid="home-news">
          <img src={n.preview} alt="" loading="lazy" />
          <span className={styles.date}>{formatShortDate(n.date)}</span>
          <span className={styles.title}>{n.title}</span>
        </Link>
      ))}
    </Carousel>
  );
}
