import { NavLink } from 'react-router';
import styles from './Products.module.css';

/** The Details / Documents tabs of a product. */
export function ProductTabs({ id }: { id: string }) {
  const cls = ({ isActive }: { isActive: boolean }) => `${styles.tab} ${isActive ? styles.tabActive : ''}`;
  return (
    <nav className={styles.tabs} aria-label="Product sections">
      <NavLink end to={`/products/detail/${id}`} className={cls}>
        Details
      </NavLink>
      <NavLink end to={`/products/detail/${id}/documents`} className={cls}>
        Documents
      </NavLink>
    </nav>
  );
}
