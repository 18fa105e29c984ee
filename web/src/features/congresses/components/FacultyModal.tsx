import { Modal } from '@/components/modal/Modal';
import type { Expert } from '@/components/programme/types';
import { RichText } from '@/components/RichText';
import styles from './congresses.module.css';

/** A faculty member: image, name, subtitle and description. */
export function FacultyModal({ expert, onClose }: { expert: Expert | null; onClose: () => void }) {
  return (
    <Modal open={expert !== null} onClose={onClose} title={expert?.name ?? ''}>
      {expert && (
        <div className={styles.facultyModal}>
          {(expert.image ?? expert.preview) && <img src={expert.image ?? expert.preview ?? undefined} alt="" />}
          {expert.subtitle && <p>{expert.subtitle}</p>}
          <div className={styles.facultyText}>
            <RichText html={expert.description} />
          </div>
        </div>
      )}
    </Modal>
  );
}
