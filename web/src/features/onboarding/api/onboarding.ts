import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type OnboardingSlide = Schemas['Slide'];

export const onboardingSlidesKey = ['onboarding', 'slides'] as const;

export function getOnboardingSlides(): Promise<Schemas['OnboardingResponse']> {
  return api.get<Schemas['OnboardingResponse']>('/users/onboarding');
}

/** Marks the onboarding as seen. */
export function completeOnboarding(): Promise<Schemas['ResultResponse']> {
  return api.post<Schemas['ResultResponse']>('/users/onboarding');
}
