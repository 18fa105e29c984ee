import { useRef, type FormEvent } from 'react';
import { SearchIcon } from '@/components/icons';
import styles from './Search.module.css';

export interface SearchBarProps {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  autoFocus?: boolean;
}

/** The search field; Enter searches at once and closes the on-screen keyboard. */
export function SearchBar({ value, onChange, onSubmit, autoFocus }: SearchBarProps) {
  const input = useRef<HTMLInputElement>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
    input.current?.blur();
  };
  return (
    <form className={styles.bar} role="search" onSubmit={submit}>
      <SearchIcon size={20} className={styles.barIcon} />
      <input
        ref={input}
        className={styles.barInput}
        type="search"
        name="string"
        placeholder="Search products, documents…"
        aria-label="Search"
        enterKeyHint="search"
        autoComplete="off"
        // Only when the Search tab opens empty: the reader came here to type.
        // eslint-disable-next-line jsx-a11y-x/no-autofocus -- see above
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </form>
  );
}
