import { EmptyState } from '@/components/EmptyState';
import { InfoIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the wizard issue fills it. */
export default function WizardPage() {
  return (
    <PageFrame title="Guide" back>
      <EmptyState icon={<InfoIcon size={32} />} title="How to use this screen">
        Tips for the screen you came from will appear here.
      </EmptyState>
    </PageFrame>
  );
}
