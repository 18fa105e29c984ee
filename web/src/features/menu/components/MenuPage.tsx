import type { ComponentType } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  BellIcon,
  CalendarIcon,
  ChevronRightIcon,
  ContactsIcon,
  DevicesIcon,
  DocumentsIcon,
  FileTextIcon,
  HistoryIcon,
  GraduationIcon,
  LinkIcon,
  LogoutIcon,
  NewsIcon,
  PlayIcon,
  PresentationIcon,
  ProductsIcon,
  ShieldIcon,
  SparkleIcon,
} from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';
import { PushSwitch } from '@/components/push/PushSwitch';
import { signOut } from '@/lib/session/logout';
import { selectUser, useSession } from '@/lib/session/store';
import { selectWhatsNewUnread, useBadges } from '@/lib/stores/badges';
import styles from './MenuPage.module.css';

interface Entry {
  label: string;
  to: string;
  Icon: ComponentType<{ size?: number }>;
  badge?: 'whatsNew';
  disabled?: boolean;
}

/** The menu of spec 2.5, in its order. */
const ENTRIES: readonly Entry[] = [
  { label: 'Products', to: '/products', Icon: ProductsIcon },
  { label: 'Documents', to: '/documents', Icon: DocumentsIcon },
  { label: 'Medical Education', to: '/learn', Icon: GraduationIcon },
  { label: 'Congresses and Events', to: '/congresses', Icon: CalendarIcon },
  { label: 'Sales Training', to: '/training', Icon: PresentationIcon },
  { label: 'News', to: '/news', Icon: NewsIcon },
  { label: "What's New", to: '/new', Icon: SparkleIcon, badge: 'whatsNew' },
  { label: 'Useful Links', to: '/useful', Icon: LinkIcon },
  { label: 'Multimedia', to: '/multimedia', Icon: PlayIcon, disabled: true },
  { label: 'Privacy', to: '/privacy', Icon: ShieldIcon },
  { label: 'Terms and Conditions', to: '/terms?accepted=true', Icon: FileTextIcon },
  { label: 'Contacts', to: '/contacts', Icon: ContactsIcon },
];

export default function MenuPage() {
  const navigate = useNavigate();
  const user = useSession(selectUser);
  const whatsNewUnread = useBadges(selectWhatsNewUnread);

  const signOutNow = () => {
    void signOut().then(() => navigate('/login', { replace: true }));
  };

  const initials = `${user?.first_name?.[0] ?? ''}${user?.last_name?.[0] ?? ''}`.toUpperCase();

  return (
    <PageFrame title="Menu" info="menu" support>
      {user && (
        <section className={styles.profile} aria-label="Account">
          <span className={styles.avatar} aria-hidden="true">
            {initials || '?'}
          </span>
          <span className={styles.who}>
            <span className={styles.name}>
              {user.first_name} {user.last_name}
            </span>
            <span className={styles.email}>{user.email}</span>
          </span>
          {user.certificate === 'US' && <span className={styles.us}>US</span>}
        </section>
      )}

      <nav aria-label="Menu">
        <ul className={styles.list}>
          {ENTRIES.map(({ label, to, Icon, badge, disabled }) => (
            <li key={to}>
              {disabled ? (
                <span className={`${styles.item} ${styles.disabled}`} aria-disabled="true">
                  <span className={styles.icon}>
                    <Icon size={22} />
                  </span>
                  <span className={styles.label}>{label}</span>
                  <span className={styles.soon}>COMING SOON</span>
                </span>
              ) : (
                <Link className={styles.item} to={to}>
                  <span className={styles.icon}>
                    <Icon size={22} />
                  </span>
                  <span className={styles.label}>{label}</span>
                  {badge === 'whatsNew' && whatsNewUnread > 0 && (
                    <span className={styles.count} aria-label={`${whatsNewUnread} unread`}>
                      {whatsNewUnread > 99 ? '99+' : whatsNewUnread}
                    </span>
                  )}
                  <ChevronRightIcon size={18} className={styles.chevron} />
                </Link>
              )}
            </li>
          ))}
          {user?.role === 'auditor' && (
            <li>
              <Link className={styles.item} to="/audit">
                <span className={styles.icon}>
                  <HistoryIcon size={22} />
                </span>
                <span className={styles.label}>Audit: documents and activity</span>
                <ChevronRightIcon size={18} className={styles.chevron} />
              </Link>
            </li>
          )}
          {(user?.role === 'publisher' || user?.role === 'approver' || user?.role === 'auditor') && (
            <li>
              <Link className={styles.item} to="/console">
                <span className={styles.icon}>
                  <FileTextIcon size={22} />
                </span>
                <span className={styles.label}>Content console: library and news</span>
                <ChevronRightIcon size={18} className={styles.chevron} />
              </Link>
            </li>
          )}
          {user?.role === 'admin' && (
            <li>
              <Link className={styles.item} to="/new/publish">
                <span className={styles.icon}>
                  <BellIcon size={22} />
                </span>
                <span className={styles.label}>Publish notifications and updates</span>
                <ChevronRightIcon size={18} className={styles.chevron} />
              </Link>
            </li>
          )}
          <li>
            <Link className={styles.item} to="/menu/sessions">
              <span className={styles.icon}>
                <DevicesIcon size={22} />
              </span>
              <span className={styles.label}>Signed-in devices</span>
              <ChevronRightIcon size={18} className={styles.chevron} />
            </Link>
          </li>
          <li>
            <PushSwitch />
          </li>
          <li>
            <button type="button" className={`${styles.item} ${styles.logout}`} onClick={signOutNow}>
              <span className={styles.icon}>
                <LogoutIcon size={22} />
              </span>
              <span className={styles.label}>Logout</span>
            </button>
          </li>
        </ul>
      </nav>
    </PageFrame>
  );
}
