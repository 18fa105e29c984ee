import { useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { CalendarIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the congresses issue fills it. */
export default function CongressesPage() {
  const { id } = useParams();
  return (
    <PageFrame title="Congresses and Events" back={id ? '/congresses' : '/home'}>
      <EmptyState icon={<CalendarIcon size={32} />} title="No congresses or events to show">
        Upcoming congresses and events will appear here.
      </EmptyState>
    </PageFrame>
  );
}
