import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Carousel } from '@/components/carousel/Carousel';
import { DocumentsIcon, FileTextIcon } from '@/components/icons';
import { homeKeys } from '@/features/home/api/home-keys';
import { api } from '@/lib/api/client';
import { useSession } from '@/lib/session/store';
import styles from './DocumentsCarousel.module.css';

/**
 * Home documents carousel: sections 'US' (only when the user's US flag allows),
 * 'My Docs' and 'Shared with me', the first 3 items of each, read with the
 * same list calls as the documents screen. A folder opens; a file opens its
 * action menu on the documents screen (`?item=`).
 */

type ListType = 'us' | 'my' | 'shared';

/** The part of a document item the carousel shows. */
interface HomeDocument {
  id: string;
  type: 'folder' | 'file';
  title: string;
  name: string;
  unread: boolean;
  children?: number | null;
  for_internal_use: boolean;
  controlled_release: boolean;
  upon_request: boolean;
}

const SECTIONS: { type: ListType; title: string; path: string }[] = [
  { type: 'us', title: 'US', path: '/usadocs' },
  { type: 'my', title: 'My Docs', path: '/documents/my' },
  { type: 'shared', title: 'Shared with me', path: '/documents/shared' },
];

/** Spec section 9: home documents, 3 per group. */
const PER_GROUP = 3;

type HomeLists = Partial<Record<ListType, HomeDocument[]>>;

async function getHomeDocuments(showUs: boolean, signal: AbortSignal): Promise<HomeLists> {
  const wanted = SECTIONS.filter((section) => section.type !== 'us' || showUs);
  // One failing list does not hide the others.
  const results = await Promise.allSettled(
    wanted.map((section) => api.get<{ list: HomeDocument[] }>(section.path, undefined, { signal })),
  );
  const lists: HomeLists = {};
  results.forEach((result, index) => {
    const section = wanted[index];
    if (section && result.status === 'fulfilled') lists[section.type] = result.value.list ?? [];
  });
  return lists;
}

/** Every label of the item, as the document lists show them (spec 2.16). */
function labels(item: HomeDocument): string[] {
  const out: string[] = [];
  if (item.for_internal_use) out.push('For internal use');
  if (item.controlled_release) out.push('Controlled release');
  if (item.upon_request) out.push('Upon request');
  return out;
}

export function DocumentsCarousel() {
  const showUs = useSession((state) => state.user?.show_us === true);
  const navigate = useNavigate();
  const { data } = useQuery({
    // Under `homeKeys.all`: pull-to-refresh on Home reloads it with the rest.
    queryKey: [...homeKeys.documents(), showUs],
    queryFn: ({ signal }) => getHomeDocuments(showUs, signal),
  });

  if (!data) return null;
  const sections = SECTIONS.filter((section) => section.type !== 'us' || showUs)
    .map((section) => ({ ...section, items: (data[section.type] ?? []).slice(0, PER_GROUP) }))
    .filter((section) => section.items.length > 0);
  if (sections.length === 0) return null;

  const onTap = (type: ListType, item: HomeDocument) => {
    const id = encodeURIComponent(item.id);
    if (item.type === 'folder') void navigate(`/documents/folder/${id}?type=${type}`);
    else void navigate(`/documents?tab=${type}&item=${id}`);
  };

  return (
    <>
      {sections.map((section) => (
        <Carousel
          key={section.type}
          title={section.title}
          to={`/documents?tab=${section.type}`}
          accent={section.type === 'us'}
        >
          {section.items.map((item) => {
            const name = item.title?.trim() || item.name;
            const flags = labels(item);
            return (
              <button
                key={`${item.type}-${item.id}`}
                type="button"
                className={styles.card}
                onClick={() => onTap(section.type, item)}
              >
                <span className={`${styles.icon} ${item.type === 'file' ? styles.file : ''}`}>
                  {item.type === 'folder' ? <DocumentsIcon size={20} /> : <FileTextIcon size={20} />}
                  {item.unread && <span className={styles.unread} aria-label="Unread" role="img" />}
                </span>
                <span className={styles.title}>{name}</span>
                {flags.length > 0 ? (
                  <span className={styles.labels}>
                    {flags.map((flag) => (
                      <span key={flag} className={styles.label}>
                        {flag}
                      </span>
                    ))}
                  </span>
                ) : (
                  item.type === 'folder' &&
                  typeof item.children === 'number' && (
                    <span className={styles.meta}>
                      {item.children} {item.children === 1 ? 'item' : 'items'}
                    </span>
                  )
                )}
              </button>
            );
          })}
        </Carousel>
      ))}
    </>
  );
}
