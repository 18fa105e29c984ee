import { create } from 'zustand';
import { readJson, storage, STORAGE_KEYS, writeJson } from '../storage';
import type { SessionResponse, User } from './types';

export interface SessionFlags {
  /** Terms need accepting when true or unset (null). */
  needAcceptTerms: boolean | null;
  onboarding: boolean;
  push: boolean;
  updateId: number | null;
}

interface SessionData extends SessionFlags {
  user: User | null;
  /** When the session was last confirmed by the server (ms since epoch), not persisted. */
  syncedAt: number;
}

interface SessionActions {
  /** Takes the answer of login or welcome. */
  applySession: (response: SessionResponse) => void;
  setUser: (user: User) => void;
  termsAccepted: () => void;
  onboardingDone: () => void;
  updateSeen: () => void;
  clear: () => void;
}

export type SessionState = SessionData & SessionActions;

const initial: SessionData = {
  user: null,
  needAcceptTerms: null,
  onboarding: false,
  push: false,
  updateId: null,
  syncedAt: 0,
};

type Persisted = Omit<SessionData, 'syncedAt'>;

function restore(): SessionData {
  const saved = readJson<Partial<Persisted>>(storage, STORAGE_KEYS.session);
  if (!saved?.user || typeof saved.user !== 'object') return initial;
  return {
    ...initial,
    user: saved.user,
    needAcceptTerms: typeof saved.needAcceptTerms === 'boolean' ? saved.needAcceptTerms : null,
    onboarding: saved.onboarding === true,
    push: saved.push === true,
    updateId: typeof saved.updateId === 'number' ? saved.updateId : null,
  };
}

export const useSession = create<SessionState>()((set) => ({
  ...restore(),
  applySession: (response) =>
    set({
      user: response.user,
      needAcceptTerms: typeof response.need_accept_terms === 'boolean' ? response.need_accept_terms : null,
      onboarding: response.onboarding === true,
      push: response.push === true,
      updateId: typeof response.update_id === 'number' ? response.update_id : null,
      syncedAt: Date.now(),
    }),
  setUser: (user) => set({ user }),
  termsAccepted: () => set({ needAcceptTerms: false }),
  onboardingDone: () => set({ onboarding: false }),
  updateSeen: () => set({ updateId: null }),
  clear: () => set({ ...initial }),
}));

// User data is kept locally so a reload keeps the session.
useSession.subscribe((state) => {
  if (!state.user) {
    storage.remove(STORAGE_KEYS.session);
    return;
  }
  const persisted: Persisted = {
    user: state.user,
    needAcceptTerms: state.needAcceptTerms,
    onboarding: state.onboarding,
    push: state.push,
    updateId: state.updateId,
  };
  writeJson(storage, STORAGE_KEYS.session, persisted);
});

export const selectLoggedIn = (state: SessionState): boolean => state.user !== null;
export const selectUser = (state: SessionState): User | null => state.user;
export const selectFirstName = (state: SessionState): string => state.user?.first_name ?? '';
