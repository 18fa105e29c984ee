import { useState } from 'react';
import { Loader } from '@/components/Loader';
import { mailAddressOf, useCtaUrl } from '@/lib/cta';
import { PageFrame } from '@/components/page/PageFrame';
import { GENERIC_ERROR, useFailureToast } from '@/lib/hooks/useFailureToast';
import { toast } from '@/lib/stores/toast';
import { useContacts } from '../api/get-contacts';
import { ContactModal } from './ContactModal';
import styles from './Contacts.module.css';

/** /contacts: support mail, section tabs and the entries of the selected section. */
export default function ContactsPage() {
  const query = useContacts();
  const support = useCtaUrl('support');
  useFailureToast(query.error);
  const [tab, setTab] = useState(0);
  const [entry, setEntry] = useState<{ id: number; title: string } | null>(null);
  const sections = query.data ?? [];
  const section = sections[tab] ?? sections[0];

  const open = (id: number | undefined, title: string) => {
    // An entry without id cannot be opened (spec 5).
    if (!id) {
      toast.danger(GENERIC_ERROR);
      return;
    }
    setEntry({ id, title });
  };

  return (
    <PageFrame title="Contacts" back="/menu" mail={support}>
      <div className={styles.page}>
        <p className={styles.support}>
          Support: <a href={support}>{mailAddressOf(support)}</a>
        </p>
        {query.isPending && <Loader />}
        {sections.length > 0 && (
          <div className={styles.tabs} role="tablist" aria-label="Contact sections">
            {sections.map((s, i) => (
              <button
                key={s.tab}
                type="button"
                role="tab"
                aria-selected={s === section}
                className={`${styles.tab} ${s === section ? styles.active : ''}`}
                onClick={() => setTab(i)}
              >
                {s.tab}
              </button>
            ))}
          </div>
        )}
        {section && (
          <div role="tabpanel" aria-label={section.tab}>
            <ul className={styles.list}>
              {section.voices.map((v) => (
                <li key={v.id}>
                  <button type="button" className={styles.entry} onClick={() => open(v.id, v.title)}>
                    <span className={styles.title}>{v.title}</span>
                    {v.subtitle && <span className={styles.subtitle}>{v.subtitle}</span>}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <ContactModal id={entry?.id ?? null} title={entry?.title ?? ''} onClose={() => setEntry(null)} />
    </PageFrame>
  );
}
