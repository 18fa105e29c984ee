import { MailIcon } from '../icons';
import { Modal } from './Modal';
import styles from './SupportModal.module.css';

export const SUPPORT_EMAIL = 'support@example.com';

export function SupportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Support"
      footer={
        <a className="btn btn-primary" href={`mailto:${SUPPORT_EMAIL}`}>
          Write to support
        </a>
      }
    >
      <div className={styles.text}>
        <p>
          For account activation, login or navigation problems and requests to update material, please contact our
          support team:
        </p>
        <a className={styles.mail} href={`mailto:${SUPPORT_EMAIL}`}>
          <MailIcon size={20} />
          {SUPPORT_EMAIL}
        </a>
        <p>
          Please attach a screenshot of the problem to your message and tell us which browser and operating system you
          are using.
        </p>
      </div>
    </Modal>
  );
}
