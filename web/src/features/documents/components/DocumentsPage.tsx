import { useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { DocumentsIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the documents issue fills it. */
export default function DocumentsPage() {
  const { id } = useParams();
  return (
    <PageFrame title={id ? 'Folder' : 'Documents'} back={id ? '/documents' : undefined} support>
      <EmptyState icon={<DocumentsIcon size={32} />} title="No documents to show">
        Your documents and those shared with you will appear here.
      </EmptyState>
    </PageFrame>
  );
}
