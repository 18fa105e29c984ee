import { Link } from 'react-router';
import { Carousel } from '@/components/carousel/Carousel';
import { useHomeCongresses } from '@/features/home/api/get-home-congresses';
import styles from './CongressesCarousel.module.css';

/**
 * Home 'Congresses and Events' carousel, shown only when there are any; items go
 * to /congresses/{id}.
 */
export function CongressesCarousel() {
  const { data } = useHomeCongresses();
  const list = data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <Carousel title="Congresses and Events" to="/congresses">
      {list.map((c) => (
        <Link key={c.id} to={`/congresses/${c.id}`} className={styles.card}>
          <img src={c.preview ?? undefined} alt="" className={styles.image} loading="lazy" />
          <span className={styles.text}>
            <span className={styles.badge}>{c.type === 'event' ? 'Event' : 'Congress'}</span>
            <strong>{c.name}</strong>
            <span className={styles.dates}>{c.dates}</span>
          </span>
        </Link>
      ))}
    </Carousel>
  );
}
