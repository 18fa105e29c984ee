import { useState } from 'react';
import { CalendarIcon } from '../icons';
import { downloadFile } from '@/lib/download';
import { toast } from '@/lib/stores/toast';
import styles from './programme.module.css';

/** 'Save in calendar': downloads the iCalendar file at `href`. */
export function CalendarButton({
  href,
  label = 'Save in calendar',
}: {
  href: string | null | undefined;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  if (!href) return null;
  const save = async () => {
    setBusy(true);
    try {
      await downloadFile(href, 'event.ics');
    } catch {
      toast.danger('Cannot perform operation');
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className={`btn btn-outline ${styles.calendar}`} onClick={() => void save()} disabled={busy}>
      <CalendarIcon size={18} />
      {label}
    </button>
  );
}
