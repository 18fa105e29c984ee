import { useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { NewsIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the news issue fills it. */
export default function NewsPage() {
  const { id } = useParams();
  return (
    <PageFrame title="News" back={id ? '/news' : '/home'}>
      <EmptyState icon={<NewsIcon size={32} />} title="No news to show">
        Company news will appear here.
      </EmptyState>
    </PageFrame>
  );
}
