import type { FilterOption } from '@/lib/filters';
import styles from './YearChips.module.css';

/** The year filter of a list as a row of chips (the selected one highlighted). */
export function YearChips({
  options,
  value,
  onChange,
}: {
  options: FilterOption[] | undefined;
  value: string;
  onChange: (year: string) => void;
}) {
  if (!options || options.length === 0) return null;
  return (
    <div className={styles.row} role="radiogroup" aria-label="Year">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          className={`${styles.chip} ${option.value === value ? styles.selected : ''}`}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
