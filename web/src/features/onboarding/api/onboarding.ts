import { api } from '@/lib/api/client';

export interface OnboardingSlide {
  image: string;
}

export const onboardingSlidesKey = ['onboarding', 'slides'] as const;

export function getOnboardingSlides(): Promise<{ slides: OnboardingSlide[] }> {
  return api.get<{ slides: OnboardingSlide[] }>('/users/onboarding');
}

/** Marks the onboarding as seen. */
export function completeOnboarding(): Promise<{ result: boolean }> {
  return api.post<{ result: boolean }>('/users/onboarding');
}
