import { useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { GraduationIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the learn issue fills it. */
export default function LearnPage() {
  const { id } = useParams();
  return (
    <PageFrame title="Medical Education Calendar" back={id ? '/learn' : '/menu'}>
      <EmptyState icon={<GraduationIcon size={32} />} title="No courses to show">
        Medical education courses will appear here.
      </EmptyState>
    </PageFrame>
  );
}
