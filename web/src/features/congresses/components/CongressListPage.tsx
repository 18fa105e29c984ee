import { useSearchParams } from 'react-router';
import { Badge } from '@/components/Badge';
import { EmptyState } from '@/components/EmptyState';
import { CalendarIcon } from '@/components/icons';
import { ListRow } from '@/components/ListRow';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useErrorRedirect } from '@/components/page/useErrorRedirect';
import { YearChips } from '@/components/YearChips';
import { withFilter } from '@/lib/filters';
import { useCongresses } from '../api/get-congresses';
import { congressBadge } from '../congress-badge';
import styles from './congresses.module.css';

/** /congresses: congresses and events of a year (`?year=`, default the current year). */
export default function CongressListPage() {
  const [search, setSearch] = useSearchParams();
  const year = search.get('year');
  const query = useCongresses(year);
  useErrorRedirect(query.isError, query.error, '/home');
  const selected = query.data?.selected.year ?? year ?? '';

  return (
    <PageFrame title="Congresses and Events" back="/home" info="congresses" onRefresh={() => query.refetch()}>
      <YearChips
        options={query.data?.filters.year}
        value={selected}
        onChange={(y) => setSearch(withFilter(search, 'year', y), { replace: true })}
      />
      {query.isPending ? (
        <Loader />
      ) : query.data && query.data.list.length > 0 ? (
        <ul className={styles.list}>
          {query.data.list.map((c) => {
            const badge = congressBadge(c.type);
            return (
              <ListRow
                key={c.id}
                to={`/congresses/${c.id}`}
                preview={c.preview}
                title={c.name}
                subtitle={c.subtitle}
                meta={c.dates}
                badge={<Badge tone={badge.tone}>{badge.label}</Badge>}
              />
            );
          })}
        </ul>
      ) : (
        <EmptyState icon={<CalendarIcon size={32} />} title="No congresses or events to show">
          There are no congresses or events in {selected}.
        </EmptyState>
      )}
    </PageFrame>
  );
}
