import { beforeEach, describe, expect, it } from 'vitest';
import { launchLink, notificationLink } from './links';
import { peekDestination, takeDestination } from './next';
import { useSession } from './store';
import type { SessionResponse } from './types';

const anna: SessionResponse = {
  user: {
    id: 'u1',
    email: 'anna.rossi@example.com',
    first_name: 'Anna',
    last_name: 'Rossi',
    certificate: null,
    teams: null,
    role: 'user',
    show_us: false,
  },
  need_accept_terms: false,
  onboarding: false,
  push: false,
  update_id: null,
  jwt: 'token',
};

describe('session store and destination after login', () => {
  beforeEach(() => {
    useSession.getState().clear();
    launchLink.clear();
    notificationLink.clear();
  });

  it('is logged in once a session is applied', () => {
    expect(useSession.getState().user).toBeNull();
    useSession.getState().applySession(anna);
    expect(useSession.getState().user?.first_name).toBe('Anna');
    expect(takeDestination()).toBe('/home');
  });

  it('treats a missing terms flag as terms to accept', () => {
    const { need_accept_terms: _omitted, ...withoutFlag } = anna;
    useSession.getState().applySession(withoutFlag);
    expect(useSession.getState().needAcceptTerms).toBeNull();
    expect(takeDestination()).toBe('/terms');
  });

  it('walks terms -> onboarding -> update -> home as each step is done', () => {
    useSession.getState().applySession({ ...anna, need_accept_terms: true, onboarding: true, update_id: 9 });
    expect(takeDestination()).toBe('/terms');
    useSession.getState().termsAccepted();
    expect(takeDestination()).toBe('/onboarding');
    useSession.getState().onboardingDone();
    expect(takeDestination()).toBe('/new/update/9');
    useSession.getState().updateSeen();
    expect(takeDestination()).toBe('/home');
  });

  it('follows a stored launch link once', () => {
    useSession.getState().applySession(anna);
    launchLink.set('/documents');
    expect(peekDestination().path).toBe('/documents');
    expect(takeDestination()).toBe('/documents');
    expect(takeDestination()).toBe('/home');
  });

  it('follows a pending notification link after the launch link', () => {
    useSession.getState().applySession(anna);
    launchLink.set('/news/1');
    notificationLink.set('/congresses/2');
    expect(takeDestination()).toBe('/news/1');
    expect(takeDestination()).toBe('/congresses/2');
    expect(takeDestination()).toBe('/home');
  });

  it('refuses to store a link that leaves the app', () => {
    launchLink.set('https://evil.example/');
    expect(launchLink.get()).toBeNull();
  });

  it('clears everything on clear()', () => {
    useSession.getState().applySession({ ...anna, update_id: 3 });
    useSession.getState().clear();
    expect(useSession.getState()).toMatchObject({ user: null, updateId: null, needAcceptTerms: null });
  });
});
