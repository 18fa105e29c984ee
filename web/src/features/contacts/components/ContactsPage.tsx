import { EmptyState } from '@/components/EmptyState';
import { ContactsIcon } from '@/components/icons';
import { SUPPORT_EMAIL } from '@/components/modal/SupportModal';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the contacts issue fills it. */
export default function ContactsPage() {
  return (
    <PageFrame title="Contacts" back="/menu" mail={SUPPORT_EMAIL}>
      <EmptyState icon={<ContactsIcon size={32} />} title="No contacts to show">
        Support: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </EmptyState>
    </PageFrame>
  );
}
