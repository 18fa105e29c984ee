import { useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { PresentationIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the training issue fills it. */
export default function TrainingPage() {
  const { id } = useParams();
  return (
    <PageFrame title={id ? 'Training details' : 'Sales Training'} back={id ? '/training' : '/home'}>
      <EmptyState icon={<PresentationIcon size={32} />} title="No training to show">
        Sales training sessions will appear here.
      </EmptyState>
    </PageFrame>
  );
}
