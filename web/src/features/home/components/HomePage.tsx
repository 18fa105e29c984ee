import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useHomeNews } from '../api/get-home-news';
import { useHomeProducts } from '../api/get-home-products';
import { refreshBadges } from '@/lib/api/badges';
import { homeKeys } from '../api/home-keys';
import { useSessionRefresh } from '../hooks/useSessionRefresh';
import { CongressesCarousel } from './carousels/CongressesCarousel';
import { DocumentsCarousel } from './carousels/DocumentsCarousel';
import { NewsCarousel } from './carousels/NewsCarousel';
import { ProductsCarousel } from './carousels/ProductsCarousel';
import { HomeHero } from './HomeHero';
import styles from './HomePage.module.css';

export default function HomePage() {
  const queryClient = useQueryClient();
  const refreshSession = useSessionRefresh();
  const products = useHomeProducts();
  const news = useHomeNews();
  useFailureToast(products.error ?? news.error);
  // The carousels are shown together once the first load of all of them is over: each one
  // appearing on its own would push the ones below it down the screen.
  const fetching = useIsFetching({ queryKey: homeKeys.all });
  const [shown, setShown] = useState(false);
  // Latched during render (React's pattern for state that follows other values): refetches later
  // (pull-to-refresh) never hide the carousels again.
  if (!shown && fetching === 0 && !products.isPending && !news.isPending) setShown(true);

  // The unread dot (and the menu's What's New count) read the badges store.
  useEffect(() => {
    void refreshBadges();
  }, []);

  // Pull-to-refresh: reload the home data and log in again with the token.
  const onRefresh = useCallback(
    () => Promise.all([queryClient.invalidateQueries({ queryKey: homeKeys.all }), refreshSession(), refreshBadges()]),
    [queryClient, refreshSession],
  );

  return (
    <PageFrame title="Home" header={<HomeHero />} onRefresh={onRefresh}>
      {!shown && (
        <div className={styles.loading}>
          <Loader />
        </div>
      )}
      <div className={styles.sections} data-shown={shown}>
        <ProductsCarousel segments={products.data ?? []} />
        <DocumentsCarousel />
        <NewsCarousel news={news.data ?? []} />
        <CongressesCarousel />
      </div>
    </PageFrame>
  );
}
