import { useLocation, useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { ProductsIcon } from '@/components/icons';
import { PageFrame } from '@/components/page/PageFrame';

/** First version of the screen: its frame and title; the products issue fills it. */
export default function ProductsPage() {
  const { segment, category, id } = useParams();
  const { pathname } = useLocation();
  const title = pathname.startsWith('/products/detail/component')
    ? 'Component'
    : pathname.startsWith('/products/detail')
      ? 'Product'
      : 'Products';
  const back = segment ?? category ?? id ? '/products' : undefined;
  return (
    <PageFrame title={title} back={back} support>
      <EmptyState icon={<ProductsIcon size={32} />} title="No products to show">
        The product catalogue will appear here.
      </EmptyState>
    </PageFrame>
  );
}
