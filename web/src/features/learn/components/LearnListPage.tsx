import { Fragment, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { FilterSelect } from '@/components/FilterSelect';
import { GraduationIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useErrorRedirect } from '@/components/page/useErrorRedirect';
import { activeFilterCount, currentYear, optionLabel, readFilters, withFilter } from '@/lib/filters';
import { COURSE_FILTER_KEYS, COURSE_FILTERS, useCourses } from '../api/get-courses';
import { firstUpcomingIndex } from '../course-time';
import { CourseCard } from './CourseCard';
import styles from './learn.module.css';

/** /learn: the medical-education calendar with the server's filters, kept in the URL. */
export default function LearnListPage() {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => readFilters(search, COURSE_FILTER_KEYS), [search]);
  const query = useCourses(filters);
  useErrorRedirect(query.isError, query.error, '/menu');
  const options = query.data?.filters ?? {};
  const year = query.data?.selected.year ?? filters.year ?? currentYear();
  const change = (key: string, value: string) => setSearch(withFilter(search, key, value), { replace: true });
  const chips = COURSE_FILTERS.filter((f) => f.key !== 'year' && filters[f.key]);
  const upcoming = query.data ? firstUpcomingIndex(query.data.list) : null;
  // The list opens on what is coming: past courses stay above, scrolled out of view, once per list.
  const scrolledFor = useRef<string | null>(null);
  const listKey = query.data ? `${year}|${search.toString()}` : null;
  useEffect(() => {
    if (listKey === null || scrolledFor.current === listKey) return;
    scrolledFor.current = listKey;
    if (upcoming === null || upcoming === 0) return;
    // The 'Coming up' line heads what is coming.
    (
      document.querySelector('[data-testid="coming-up"]') ?? document.querySelector('[data-upcoming="first"]')
    )?.scrollIntoView({
      block: 'start',
    });
  }, [listKey, upcoming]);

  return (
    <PageFrame
      title="Medical Education Calendar"
      back="/menu"
      info="learn"
      filtersActive={activeFilterCount(filters, currentYear()) > 0}
      onRefresh={() => query.refetch()}
      filters={COURSE_FILTERS.filter((f) => f.key === 'year' || (options[f.key]?.length ?? 0) > 0).map((f) => (
        <FilterSelect
          key={f.key}
          label={f.label}
          value={f.key === 'year' ? year : (filters[f.key] ?? '')}
          options={options[f.key]}
          allLabel={f.key === 'year' ? undefined : 'All'}
          onChange={(value) => change(f.key, value)}
        />
      ))}
    >
      <div className={styles.summary} aria-label="Selected filters">
        <span className={styles.chip}>{year}</span>
        {chips.map((f) => (
          <button
            key={f.key}
            type="button"
            className={`${styles.chip} ${styles.removable}`}
            onClick={() => change(f.key, '')}
          >
            {optionLabel(options[f.key], filters[f.key])} <span aria-hidden="true">×</span>
            <span className="visually-hidden">Remove the {f.label.toLowerCase()} filter</span>
          </button>
        ))}
      </div>
      {query.isPending ? (
        <Loader />
      ) : query.data && query.data.list.length > 0 ? (
        <ul className={styles.cards}>
          {query.data.list.map((course, index) => (
            <Fragment key={course.id}>
              {index === upcoming && index > 0 && (
                <li className={styles.upcomingDivider} data-testid="coming-up">
                  Coming up
                </li>
              )}
              <CourseCard course={course} upcoming={index === upcoming} />
            </Fragment>
          ))}
        </ul>
      ) : (
        <EmptyState icon={<GraduationIcon size={32} />} title="No courses to show">
          No course matches these filters.
        </EmptyState>
      )}
    </PageFrame>
  );
}
