import { Link } from 'react-router';
import { Carousel } from '@/components/carousel/Carousel';
import styles from './HomeCarousels.module.css';

/** Home products carousel: one card per product segment, each going to /products/{id}. */
export interface SegmentCard {
  id: number;
  name: string;
  preview: string;
  red_label?: string | null;
}

export function ProductsCarousel({ segments }: { segments: SegmentCard[] }) {
  if (segments.length === 0) return null;
  return (
    <Carousel title="Products" to="/products">
      {segments.map((s) => (
        <Link key={s.id} to={`/products/${s.id}`} className={styles.segment} data-testid="home-segment">
          <img src={s.preview} alt="" loading="lazy" />
          <span className={styles.name}>{s.name}</span>
          {s.red_label && <span className={styles.redLabel}>{s.red_label}</span>}
        </Link>
      ))}
    </Carousel>
  );
}
