import { useId, useState, type ReactNode } from 'react';
import { ChevronDownIcon } from '../icons';
import { canToggleAll, toggleAll, toggleAllLabel, toggleOne } from './accordion';
import styles from './Accordion.module.css';

export interface AccordionGroup {
  key: string;
  title: ReactNode;
  /** Items in the group; a group without any cannot be opened. */
  count: number;
  children?: ReactNode;
}

export interface AccordionProps {
  groups: AccordionGroup[];
  /** Shows 'Expand all' / 'Close all' above the groups. */
  toggleAllButton?: boolean;
  initiallyOpen?: string[];
}

/** Groups that open and close, each on its own or all together (spec section 4). */
export function Accordion({ groups, toggleAllButton = true, initiallyOpen = [] }: AccordionProps) {
  const id = useId();
  const [open, setOpen] = useState<Set<string>>(() => new Set(initiallyOpen));
  return (
    <div className={styles.accordion}>
      {toggleAllButton && (
        <div className={styles.toolbar}>
          <button
            type="button"
            className={styles.all}
            disabled={!canToggleAll(groups)}
            onClick={() => setOpen(toggleAll(open, groups))}
          >
            {toggleAllLabel(open, groups)}
          </button>
        </div>
      )}
      {groups.map((group) => {
        const expanded = open.has(group.key) && group.count > 0;
        return (
          <section key={group.key} className={`${styles.group} ${expanded ? styles.expanded : ''}`}>
            <h3 className={styles.heading}>
              <button
                type="button"
                className={styles.header}
                aria-expanded={expanded}
                aria-controls={`${id}-${group.key}`}
                disabled={group.count === 0}
                onClick={() => setOpen(toggleOne(open, group.key))}
              >
                <span className={styles.title}>{group.title}</span>
                <span className={styles.count}>{group.count}</span>
                <ChevronDownIcon size={20} className={styles.chevron} />
              </button>
            </h3>
            {expanded && (
              <div id={`${id}-${group.key}`} className={styles.body}>
                {group.children}
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
}
