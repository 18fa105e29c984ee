import type { ComponentType } from 'react';
import { NavLink } from 'react-router';
import { selectAnyModalOpen, useUi } from '@/lib/stores/ui';
import { DocumentsIcon, HomeIcon, MenuIcon, ProductsIcon, SearchIcon } from '../icons';
import styles from './TabBar.module.css';

interface Tab {
  to: string;
  label: string;
  Icon: ComponentType<{ size?: number }>;
}

const TABS: readonly Tab[] = [
  { to: '/home', label: 'Home', Icon: HomeIcon },
  { to: '/products', label: 'Products', Icon: ProductsIcon },
  { to: '/documents', label: 'Documents', Icon: DocumentsIcon },
  { to: '/search', label: 'Search', Icon: SearchIcon },
  { to: '/menu', label: 'Menu', Icon: MenuIcon },
];

/** Bottom navigation (72 px); hidden while any modal is open. */
export function TabBar() {
  const modalOpen = useUi(selectAnyModalOpen);
  if (modalOpen) return null;
  return (
    <nav className={styles.bar} aria-label="Main">
      {TABS.map(({ to, label, Icon }) => (
        <NavLink key={to} to={to} className={({ isActive }) => `${styles.tab} ${isActive ? styles.active : ''}`}>
          <span className={styles.icon}>
            <Icon size={24} />
          </span>
          <span className={styles.label}>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
