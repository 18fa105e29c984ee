import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { PresentationIcon } from '@/components/icons';
import { ListRow } from '@/components/ListRow';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useErrorRedirect } from '@/components/page/useErrorRedirect';
import { YearChips } from '@/components/YearChips';
import { withFilter } from '@/lib/filters';
import { useTrainings } from '../api/get-trainings';
import styles from './training.module.css';

/** /training: sales training of a year (`?year=`, default the current year). */
export default function TrainingListPage() {
  const [search, setSearch] = useSearchParams();
  const year = search.get('year');
  const query = useTrainings(year);
  useErrorRedirect(query.isError, query.error, '/home');
  const selected = query.data?.selected.year ?? year ?? '';

  return (
    <PageFrame title="Sales Training" back="/home" onRefresh={() => query.refetch()}>
      <YearChips
        options={query.data?.filters.year}
        value={selected}
        onChange={(y) => setSearch(withFilter(search, 'year', y), { replace: true })}
      />
      {query.isPending ? (
        <Loader />
      ) : query.data && query.data.list.length > 0 ? (
        <ul className={styles.list}>
          {query.data.list.map((t) => (
            <ListRow
              key={t.id}
              to={`/training/${t.id}`}
              preview={t.preview}
              title={t.name}
              subtitle={t.subtitle}
              meta={t.dates}
            />
          ))}
        </ul>
      ) : (
        <EmptyState icon={<PresentationIcon size={32} />} title="No training to show">
          There is no sales training in {selected}.
        </EmptyState>
      )}
    </PageFrame>
  );
}
