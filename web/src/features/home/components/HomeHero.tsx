import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { BellIcon, BrandMark, SearchIcon } from '@/components/icons';
import { selectFirstName, useSession } from '@/lib/session/store';
import { useBadges } from '@/lib/stores/badges';
import { searchPath } from '../search-path';
import { ArrivalBanner } from './ArrivalBanner';
import styles from './HomeHero.module.css';

function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export function HomeHero() {
  const navigate = useNavigate();
  const firstName = useSession(selectFirstName);
  const unread = useBadges((s) => s.notificationsUnread);
  const [term, setTerm] = useState('');

  const search = (event: FormEvent) => {
    event.preventDefault();
    void navigate(searchPath(term));
  };

  return (
    <header className={styles.hero}>
      <div className={styles.top}>
        <BrandMark size={34} inverted />
        <Link
          to="/new?section=notifications"
          className={styles.bell}
          aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        >
          <BellIcon size={24} />
          {unread > 0 && <span className={styles.dot} data-testid="unread-dot" />}
        </Link>
      </div>
      <ArrivalBanner />
      <p className={styles.salute}>{greeting(new Date().getHours())}</p>
      <h1 className={styles.greeting}>Hi {firstName}</h1>
      <form className={styles.search} role="search" onSubmit={search}>
        <SearchIcon size={20} className={styles.searchIcon} />
        <input
          className={styles.searchInput}
          type="search"
          name="string"
          placeholder="Search products, documents…"
          aria-label="Search"
          enterKeyHint="search"
          value={term}
          onChange={(e) => setTerm(e.target.value)}
        />
      </form>
    </header>
  );
}
