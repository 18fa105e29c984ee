import { Loader } from '@/components/Loader';
import { Modal } from '@/components/modal/Modal';
import { RichText } from '@/components/RichText';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useContact } from '../api/get-contact';
import styles from './Contacts.module.css';

/** An entry's detail: title, address, phone (telephone link), fax, e-mail (mail link); only present fields. */
export function ContactModal({ id, title, onClose }: { id: number | null; title: string; onClose: () => void }) {
  const query = useContact(id);
  useFailureToast(query.error);
  const c = query.data;
  return (
    <Modal open={id !== null} onClose={onClose} title={c?.title ?? title}>
      {query.isPending && <Loader />}
      {c && (
        <dl className={styles.fields}>
          {c.address && (
            <div>
              <dt>Address</dt>
              <dd>
                <RichText html={c.address} />
              </dd>
            </div>
          )}
          {c.phone && (
            <div>
              <dt>Phone</dt>
              <dd>
                <a href={`tel:${c.phone.replace(/\s+/g, '')}`}>{c.phone}</a>
              </dd>
            </div>
          )}
          {c.fax && (
            <div>
              <dt>Fax</dt>
              <dd>{c.fax}</dd>
            </div>
          )}
          {c.email && (
            <div>
              <dt>E-mail</dt>
              <dd>
                <a href={`mailto:${c.email}`}>{c.email}</a>
              </dd>
            </div>
          )}
        </dl>
      )}
    </Modal>
  );
}
