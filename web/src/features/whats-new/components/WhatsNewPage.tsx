import { useLocation, useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { SparkleIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the whats-new issue fills it. */
export default function WhatsNewPage() {
  const { id } = useParams();
  const { pathname } = useLocation();
  const isUpdate = pathname.startsWith('/new/update');
  return (
    <PageFrame title="What's New" back={isUpdate ? '/new?section=updates' : '/home'}>
      <EmptyState icon={<SparkleIcon size={32} />} title={isUpdate && id ? 'App update' : 'Nothing new'}>
        Notifications and app updates will appear here.
      </EmptyState>
    </PageFrame>
  );
}
