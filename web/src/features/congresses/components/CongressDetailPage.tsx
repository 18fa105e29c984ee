import { Link, useParams } from 'react-router';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useErrorRedirect } from '@/components/page/useErrorRedirect';
import { ProgrammeTabs } from '@/components/programme/ProgrammeTabs';
import { useCongress } from '../api/get-congress';
import styles from './congresses.module.css';

/** /congresses/{id}: the congress with the tabs its response gives. */
export default function CongressDetailPage() {
  const { id } = useParams();
  const query = useCongress(id);
  useErrorRedirect(!id || query.isError, query.error, '/congresses');
  const congress = query.data;

  return (
    <PageFrame title={congress?.name ?? 'Congresses and Events'} back="/congresses">
      {congress ? (
        <ProgrammeTabs
          tabs={congress.tabs}
          order={congress.tab_order}
          name={congress.name}
          subtitle={congress.subtitle ?? undefined}
          activityActions={(event) => (
            <Link className={styles.readMore} to={`/congresses/activities/${event.id}`}>
              Read more
            </Link>
          )}
        />
      ) : (
        <Loader />
      )}
    </PageFrame>
  );
}
