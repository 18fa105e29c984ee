import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

/** The registration form as the server reads it (spec section 3). */
export interface RegisterPayload {
  id: number;
  days: string[];
  name: string;
  email: string;
  hospital: string | null;
  category: 'surgeon' | 'staff' | null;
  newsletter: boolean;
  privacy_consent: boolean;
  data_consent: boolean;
}

/** `POST /api/courses/{id}/register`: answers `{message}`. */
export function registerToCourse(payload: RegisterPayload): Promise<{ message: string }> {
  return api.post<{ message: string }>(`/courses/${payload.id}/register`, payload);
}

export function useRegisterToCourse() {
  return useMutation({ mutationFn: registerToCourse });
}
