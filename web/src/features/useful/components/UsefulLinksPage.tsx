import { ExternalIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { shortenLink } from '@/lib/text';
import { useUsefulLinks } from '../api/get-useful-links';
import styles from './UsefulLinks.module.css';

/** /useful: image, title and the link shortened to 30 characters; opens in a new window. */
export default function UsefulLinksPage() {
  const query = useUsefulLinks();
  useFailureToast(query.error, { message: 'An error occured while getting the links' });
  return (
    <PageFrame title="Useful Links" back="/menu">
      <div className={styles.page}>
        {query.isPending && <Loader />}
        <ul className={styles.list}>
          {query.data?.map((l) => (
            <li key={l.id}>
              <a className={styles.row} href={l.link} target="_blank" rel="noopener noreferrer">
                <img src={l.image} alt="" loading="lazy" />
                <span className={styles.text}>
                  <span className={styles.title}>{l.title}</span>
                  <span className={styles.link}>{shortenLink(l.link)}</span>
                </span>
                <ExternalIcon size={18} />
              </a>
            </li>
          ))}
        </ul>
      </div>
    </PageFrame>
  );
}
