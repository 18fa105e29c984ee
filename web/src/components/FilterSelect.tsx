import { useId } from 'react';
import type { FilterOption } from '@/lib/filters';

export interface FilterSelectProps {
  label: string;
  value: string;
  options: FilterOption[] | undefined;
  onChange: (value: string) => void;
  /** Label of the empty choice; none for filters that always have a value (year). */
  allLabel?: string;
}

/** One filter of the Filters modal. */
export function FilterSelect({ label, value, options, onChange, allLabel }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="field" style={{ marginBottom: 14 }}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {(options ?? []).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
