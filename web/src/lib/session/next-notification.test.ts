import { afterEach, describe, expect, it } from 'vitest';
import { notificationDeepLink, notificationLink } from './links';
import { peekDestination, skipUpdateAfterFailure, takeDestination } from './next';
import { useSession } from './store';
import type { User } from './types';

const user: User = {
  id: 'u1',
  email: 'anna.rossi@example.com',
  first_name: 'Anna',
  last_name: 'Rossi',
  certificate: null,
  teams: null,
  role: 'user',
  show_us: false,
};

function signIn(updateId: number | null) {
  useSession.getState().applySession({ user, need_accept_terms: false, onboarding: false, update_id: updateId });
}

describe('destination after login', () => {
  afterEach(() => {
    useSession.getState().clear();
    notificationLink.clear();
  });

  it('offers a pending update before a kept notification link', () => {
    signIn(5);
    notificationLink.set(notificationDeepLink(2));
    expect(takeDestination()).toBe('/new/update/5');
    // The notification link waits for the wizard to finish.
    expect(notificationLink.get()).toBe('/new?section=notifications&notification=2');
  });

  it('opens the kept notification link when no update is pending', () => {
    signIn(null);
    notificationLink.set(notificationDeepLink(2));
    expect(takeDestination()).toBe('/new?section=notifications&notification=2');
    expect(notificationLink.get()).toBeNull();
  });

  it('does not offer an update whose wizard failed again in the same page session', () => {
    signIn(9);
    expect(peekDestination().path).toBe('/new/update/9');
    skipUpdateAfterFailure(9);
    expect(peekDestination().path).toBe('/home');
    signIn(10);
    expect(peekDestination().path).toBe('/new/update/10');
  });
});
