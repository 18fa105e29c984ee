import { EmptyState } from '@/components/EmptyState';
import { PlayIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the multimedia issue fills it. */
export default function MultimediaPage() {
  return (
    <PageFrame title="Multimedia" back="/menu">
      <EmptyState icon={<PlayIcon size={32} />} title="Coming soon">
        Videos and images will appear here.
      </EmptyState>
    </PageFrame>
  );
}
