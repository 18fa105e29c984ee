import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { BrandMark } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { Slider } from '@/components/slider/Slider';
import { takeDestination } from '@/lib/session/next';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { completeOnboarding, getOnboardingSlides, onboardingSlidesKey, type OnboardingSlide } from '../api/onboarding';
import styles from './OnboardingPage.module.css';

const LOAD_FAILED = 'An error occurred while getting you on board. Try again later';

export default function OnboardingPage() {
  const navigate = useNavigate();
  const onboardingDone = useSession((s) => s.onboardingDone);
  const [index, setIndex] = useState(0);
  const [finishing, setFinishing] = useState(false);
  const { data, isError } = useQuery({
    queryKey: onboardingSlidesKey,
    queryFn: getOnboardingSlides,
    select: (d) => d.slides.filter((s): s is OnboardingSlide => Boolean(s?.image)),
  });

  useEffect(() => {
    if (!isError) return;
    toast.dangerOn('/home', LOAD_FAILED);
    void navigate('/home', { replace: true });
  }, [isError, navigate]);

  if (!data) return <Loader full />;

  const slides = data;
  const isLast = index >= slides.length - 1;

  const finish = async () => {
    if (finishing) return;
    setFinishing(true);
    try {
      await completeOnboarding();
      onboardingDone();
      void navigate(takeDestination(), { replace: true });
    } catch {
      toast.dangerOn('/home', LOAD_FAILED);
      void navigate('/home', { replace: true });
    }
  };

  return (
    <div className={styles.screen}>
      <header className={styles.brand}>
        <BrandMark size={30} />
        <span>Meridian Companion</span>
      </header>
      <Slider
        label="Onboarding"
        items={slides}
        index={index}
        onIndexChange={setIndex}
        renderSlide={(slide, i) => (
          <div className={styles.slide}>
            <img
              className={styles.image}
              src={slide.image}
              alt={`Introduction ${i + 1} of ${slides.length}`}
              draggable={false}
            />
          </div>
        )}
      />
      <footer className={styles.footer}>
        {isLast ? (
          <button
            type="button"
            className="btn btn-primary btn-block"
            disabled={finishing}
            onClick={() => void finish()}
          >
            Let&apos;s start
          </button>
        ) : (
          <button type="button" className="btn btn-primary btn-block" onClick={() => setIndex(index + 1)}>
            Next
          </button>
        )}
      </footer>
    </div>
  );
}
