import { useEffect, type ComponentType } from 'react';
import { NavLink } from 'react-router';
import { refreshBadges } from '@/lib/api/badges';
import { useBadges } from '@/lib/stores/badges';
import { selectAnyModalOpen, useUi } from '@/lib/stores/ui';
import { DocumentsIcon, HomeIcon, MenuIcon, ProductsIcon, SearchIcon } from '../icons';
import { countLabel } from './count';
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
  // Documents carries the live count of new items shared with the user.
  const sharedNew = useBadges((s) => s.sharedNew);
  // The counts are known on any screen the app opens on, not only after Home; the live feed
  // keeps them current afterwards.
  useEffect(() => {
    void refreshBadges();
  }, []);
  if (modalOpen) return null;
  return (
    <nav className={styles.bar} aria-label="Main">
      {TABS.map(({ to, label, Icon }) => (
        <NavLink key={to} to={to} className={({ isActive }) => `${styles.tab} ${isActive ? styles.active : ''}`}>
          <span className={styles.icon}>
            <Icon size={24} />
          </span>
          <span className={styles.label}>{label}</span>
          {/* After the label, so a screen reader says "Documents, 2 unread"; drawn on the icon. */}
          {to === '/documents' && sharedNew > 0 && (
            <span className={styles.count} data-testid="documents-tab-count">
              {countLabel(sharedNew)}
              <span className="visually-hidden"> unread</span>
            </span>
          )}
        </NavLink>
      ))}
    </nav>
  );
}
