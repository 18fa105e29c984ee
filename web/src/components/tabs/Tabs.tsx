import { useId, type ReactNode } from 'react';
import styles from './Tabs.module.css';

export interface TabItem {
  key: string;
  label: ReactNode;
}

export interface TabsProps {
  tabs: TabItem[];
  active: string;
  onChange: (key: string) => void;
  label: string;
  children?: ReactNode;
}

/** A horizontal, scrollable tab bar and the active tab's panel. */
export function Tabs({ tabs, active, onChange, label, children }: TabsProps) {
  const id = useId();
  return (
    <div className={styles.wrap}>
      <div className={styles.bar} role="tablist" aria-label={label}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${id}-${tab.key}`}
            aria-selected={tab.key === active}
            aria-controls={`${id}-panel`}
            className={`${styles.tab} ${tab.key === active ? styles.active : ''}`}
            onClick={() => onChange(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${active}`} className={styles.panel}>
        {children}
      </div>
    </div>
  );
}
