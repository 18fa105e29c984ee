import { useEffect, useRef } from 'react';
import type { SectionChip } from '../logic/groups';
import styles from './Search.module.css';

/** 'All' and one chip per result type; the selected one is highlighted. */
export function SectionChips({
  chips,
  value,
  onChange,
}: {
  chips: SectionChip[];
  value: string;
  onChange: (value: string) => void;
}) {
  const row = useRef<HTMLDivElement>(null);

  // The selected chip is in view, also when the screen opens on one far right (?section=).
  useEffect(() => {
    const selected = row.current?.querySelector<HTMLElement>('[aria-checked="true"]');
    selected?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [value]);

  return (
    <div ref={row} className={styles.chips} role="radiogroup" aria-label="Sections">
      {chips.map((chip) => (
        <button
          key={chip.value}
          type="button"
          role="radio"
          aria-checked={chip.value === value}
          className={`${styles.chip} ${chip.value === value ? styles.chipSelected : ''}`}
          onClick={() => onChange(chip.value)}
        >
          {chip.label}
        </button>
      ))}
    </div>
  );
}
