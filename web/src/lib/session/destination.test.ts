import { describe, expect, it } from 'vitest';
import { decideDestination, isInAppLink, type DestinationInput } from './destination';

const settled: DestinationInput = {
  needAcceptTerms: false,
  onboarding: false,
  updateId: null,
  launchLink: null,
  notificationLink: null,
};

describe('decideDestination', () => {
  it('goes home when nothing is pending', () => {
    expect(decideDestination(settled)).toEqual({ path: '/home', reason: 'home' });
  });

  it('goes to the terms when they need accepting', () => {
    expect(decideDestination({ ...settled, needAcceptTerms: true }).path).toBe('/terms');
  });

  it('treats an unset terms flag as needing acceptance', () => {
    expect(decideDestination({ ...settled, needAcceptTerms: undefined }).path).toBe('/terms');
    expect(decideDestination({ ...settled, needAcceptTerms: null }).path).toBe('/terms');
  });

  it('puts the terms before everything else', () => {
    expect(
      decideDestination({
        needAcceptTerms: true,
        onboarding: true,
        updateId: 4,
        launchLink: '/news/1',
        notificationLink: '/news/2',
      }).path,
    ).toBe('/terms');
  });

  it('goes to onboarding when needed, before an update', () => {
    expect(decideDestination({ ...settled, onboarding: true, updateId: 4 })).toEqual({
      path: '/onboarding',
      reason: 'onboarding',
    });
  });

  it('goes to a pending update notice before any stored link', () => {
    expect(decideDestination({ ...settled, updateId: 7, launchLink: '/news/1', notificationLink: '/news/2' })).toEqual({
      path: '/new/update/7',
      reason: 'update',
    });
  });

  it('accepts update id 0', () => {
    expect(decideDestination({ ...settled, updateId: 0 }).path).toBe('/new/update/0');
  });

  it('goes to the stored launch link before a notification link', () => {
    expect(decideDestination({ ...settled, launchLink: '/documents', notificationLink: '/news/2' })).toEqual({
      path: '/documents',
      reason: 'launch',
    });
  });

  it('goes to a pending notification link', () => {
    expect(decideDestination({ ...settled, notificationLink: '/congresses/3' })).toEqual({
      path: '/congresses/3',
      reason: 'notification',
    });
  });

  it('skips unsafe or looping links', () => {
    expect(decideDestination({ ...settled, launchLink: 'https://evil.example', notificationLink: '/login' }).path).toBe(
      '/home',
    );
  });
});

describe('isInAppLink', () => {
  it.each(['/news/1', '/documents/folder/3?type=my', '/search?string=knee', '/home'])('accepts %s', (link) => {
    expect(isInAppLink(link)).toBe(true);
  });

  it.each([
    '',
    '/',
    '//evil.example/x',
    'https://evil.example',
    'news/1',
    '/login',
    '/login?token=x',
    '/terms',
    '/onboarding',
    '/\\evil',
  ])('rejects %s', (link) => {
    expect(isInAppLink(link)).toBe(false);
  });

  it('rejects missing values', () => {
    expect(isInAppLink(null)).toBe(false);
    expect(isInAppLink(undefined)).toBe(false);
  });
});
