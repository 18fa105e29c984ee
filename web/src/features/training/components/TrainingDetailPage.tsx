import { useParams } from 'react-router';
import { MapPinIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useErrorRedirect } from '@/components/page/useErrorRedirect';
import { showsMapsLink } from '@/components/programme/activity';
import { ProgrammeTabs } from '@/components/programme/ProgrammeTabs';
import { useTraining } from '../api/get-training';
import { trainingTitle } from '../training-title';
import styles from './training.module.css';

/** The training error of spec section 8 (its text is not given there). */
const TRAINING_ERROR = 'An error occurred while getting the training';

/** /training/{id}: the training with the tabs its response gives. */
export default function TrainingDetailPage() {
  const { id } = useParams();
  const query = useTraining(id);
  useErrorRedirect(!id || query.isError, query.error, '/training', TRAINING_ERROR);
  const training = query.data;

  return (
    <PageFrame title={trainingTitle(training)} back="/training">
      {training ? (
        <ProgrammeTabs
          tabs={training.tabs}
          order={training.tab_order}
          name={training.name}
          subtitle={training.subtitle ?? undefined}
          website={{
            text: training.text_over_website ?? undefined,
            website: training.website ?? undefined,
            link: training.link ?? undefined,
          }}
          activityActions={(event) =>
            showsMapsLink(event) ? (
              <a className={styles.maps} href={event.googlemaps ?? undefined} target="_blank" rel="noopener noreferrer">
                <MapPinIcon size={16} /> Open in Maps
              </a>
            ) : null
          }
        />
      ) : (
        <Loader />
      )}
    </PageFrame>
  );
}
