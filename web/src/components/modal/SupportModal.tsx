import { mailAddressOf, useCtaUrl } from '@/lib/cta';
import { MailIcon } from '../icons';
import { Modal } from './Modal';
import styles from './SupportModal.module.css';

export function SupportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  // The support mailbox comes from the call-to-action urls (`GET /url-cta`).
  const support = useCtaUrl('support');
  const address = mailAddressOf(support);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Support"
      footer={
        <a className="btn btn-primary" href={support}>
          Write to support
        </a>
      }
    >
      <div className={styles.text}>
        <p>
          For account activation, login or navigation problems and requests to update material, please contact our
          support team:
        </p>
        <a className={styles.mail} href={support}>
          <MailIcon size={20} />
          {address}
        </a>
        <p>
          Please attach a screenshot of the problem to your message and tell us which browser and operating system you
          are using.
        </p>
      </div>
    </Modal>
  );
}
