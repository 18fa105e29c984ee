import { Link } from 'react-router';
import type { ListItem } from '../api/types';
import { listItemTarget } from '../navigation';
import styles from './Products.module.css';

/** Category and product rows: preview, optional red label above the name, category line. */
export function ItemList({ items }: { items: ListItem[] }) {
  return (
    <ul className={styles.list}>
      {items.map((item) => (
        <li key={`${item.type}-${item.id}`}>
          <Link to={listItemTarget(item)} className={styles.row} data-testid="product-list-item">
            <img src={item.preview} alt="" loading="lazy" />
            <span className={styles.rowText}>
              {item.red_label && <span className={styles.redLabel}>{item.red_label}</span>}
              <span className={styles.rowName}>{item.name}</span>
              {item.category && <span className={styles.rowSub}>{item.category}</span>}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
