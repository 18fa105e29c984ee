import { EmptyState } from '@/components/EmptyState';
import { LinkIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the useful issue fills it. */
export default function UsefulLinksPage() {
  return (
    <PageFrame title="Useful Links" back="/menu">
      <EmptyState icon={<LinkIcon size={32} />} title="No links to show">
        Useful websites and tools will appear here.
      </EmptyState>
    </PageFrame>
  );
}
