import { EmptyState } from '@/components/EmptyState';
import { SearchIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the search issue fills it. */
export default function SearchPage() {
  return (
    <PageFrame title="Search">
      <EmptyState icon={<SearchIcon size={32} />} title="Search the app">
        Products, documents, news, events, training and courses.
      </EmptyState>
    </PageFrame>
  );
}
