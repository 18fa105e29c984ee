import { beforeEach, describe, expect, it, vi } from 'vitest';
import { selectWhatsNewUnread, useBadges } from './badges';
import {
  DEFAULT_TOAST_DURATION,
  dismissErrors,
  dismissErrorsOfPreviousScreen,
  SCREEN_CHANGE_GRACE_MS,
  showToast,
  toast,
  useToasts,
} from './toast';
import { selectAnyModalOpen, useUi } from './ui';

describe('badges store', () => {
  beforeEach(() => useBadges.getState().reset());

  it('starts at zero', () => {
    const { notificationsUnread, updatesUnread, sharedNew } = useBadges.getState();
    expect([notificationsUnread, updatesUnread, sharedNew]).toEqual([0, 0, 0]);
  });

  it("sets counters and adds notifications and updates for What's New", () => {
    useBadges.getState().setNotificationsUnread(3);
    useBadges.getState().setUpdatesUnread(2);
    useBadges.getState().setSharedNew(5);
    expect(selectWhatsNewUnread(useBadges.getState())).toBe(5);
    expect(useBadges.getState().sharedNew).toBe(5);
  });

  it('sets several counters at once and keeps the others', () => {
    useBadges.getState().setSharedNew(4);
    useBadges.getState().setCounts({ notificationsUnread: 7, updatesUnread: 1 });
    expect(useBadges.getState()).toMatchObject({ notificationsUnread: 7, updatesUnread: 1, sharedNew: 4 });
  });

  it('never holds a negative or fractional count', () => {
    useBadges.getState().setNotificationsUnread(-2);
    useBadges.getState().setUpdatesUnread(2.7);
    useBadges.getState().setSharedNew(Number.NaN);
    expect(useBadges.getState()).toMatchObject({ notificationsUnread: 0, updatesUnread: 2, sharedNew: 0 });
  });

  it('keeps a live count over an answer that was read before it arrived', () => {
    useBadges.getState().setCounts({ notificationsUnread: 5, updatesUnread: 1 });
    const since = useBadges.getState().pushed;
    // The request is on its way; the feed says the notifications were read meanwhile.
    useBadges.getState().setNotificationsUnread(0);
    useBadges.getState().setCountsUnlessPushed({ notificationsUnread: 5, updatesUnread: 2, sharedNew: 3 }, since);
    expect(useBadges.getState()).toMatchObject({ notificationsUnread: 0, updatesUnread: 2, sharedNew: 3 });
    // A later answer applies again.
    useBadges.getState().setCountsUnlessPushed({ notificationsUnread: 4 }, useBadges.getState().pushed);
    expect(useBadges.getState().notificationsUnread).toBe(4);
  });

  it('resets', () => {
    useBadges.getState().setCounts({ notificationsUnread: 1, updatesUnread: 1, sharedNew: 1 });
    useBadges.getState().reset();
    expect(selectWhatsNewUnread(useBadges.getState())).toBe(0);
  });
});

describe('toast store', () => {
  beforeEach(() => useToasts.getState().clear());

  it('shows a danger toast for 3000 ms by default', () => {
    showToast('Login failed');
    expect(useToasts.getState().toasts).toEqual([
      expect.objectContaining({ message: 'Login failed', tone: 'danger', duration: DEFAULT_TOAST_DURATION }),
    ]);
    expect(DEFAULT_TOAST_DURATION).toBe(3000);
  });

  it('shows dark toasts and custom durations', () => {
    toast.dark('Link copied!');
    toast.danger('Not found', 6000);
    expect(useToasts.getState().toasts.map((t) => [t.tone, t.duration])).toEqual([
      ['dark', 3000],
      ['danger', 6000],
    ]);
  });

  it('ignores an empty message (a sanitised server message that was dropped)', () => {
    expect(showToast('')).toBeNull();
    expect(useToasts.getState().toasts).toHaveLength(0);
  });

  it('does not stack the same message twice', () => {
    toast.danger('Login failed');
    toast.danger('Login failed');
    expect(useToasts.getState().toasts).toHaveLength(1);
  });

  it('dismisses a toast', () => {
    const id = toast.danger('Bye');
    useToasts.getState().dismiss(id ?? -1);
    expect(useToasts.getState().toasts).toHaveLength(0);
  });

  it('clears the errors on screen when an action is confirmed', () => {
    toast.danger('Enter a name for the folder');
    toast.dark("The folder 'Q3' has been created");
    expect(useToasts.getState().toasts.map((t) => t.message)).toEqual(["The folder 'Q3' has been created"]);
  });

  it('clears the errors of the previous screen, not one shown with the change of screen', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(10_000);
      toast.danger('Login failed');
      toast.dark('Link copied!');
      toast.danger('Cannot open document');
      vi.setSystemTime(10_000 + SCREEN_CHANGE_GRACE_MS + 500);
      toast.danger('An error occurred while getting all the informations');
      dismissErrorsOfPreviousScreen();
      expect(useToasts.getState().toasts.map((t) => t.message)).toEqual([
        'Link copied!',
        'An error occurred while getting all the informations',
      ]);
      dismissErrors();
      expect(useToasts.getState().toasts.map((t) => t.message)).toEqual(['Link copied!']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps an error raised for the next screen however long that screen takes to open', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(10_000);
      showToast('Your session has expired. Please sign in again.', { screen: '/login' });
      toast.danger('Cannot open document');
      vi.setSystemTime(10_000 + SCREEN_CHANGE_GRACE_MS * 5);
      dismissErrorsOfPreviousScreen('/home');
      expect(useToasts.getState().toasts).toHaveLength(0);
      showToast('Your session has expired. Please sign in again.', { screen: '/login' });
      toast.danger('Cannot open document');
      vi.setSystemTime(10_000 + SCREEN_CHANGE_GRACE_MS * 10);
      dismissErrorsOfPreviousScreen('/login');
      expect(useToasts.getState().toasts.map((t) => t.message)).toEqual([
        'Your session has expired. Please sign in again.',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('ui store', () => {
  beforeEach(() => useUi.getState().reset());

  it('counts open modals and never goes below zero', () => {
    const ui = useUi.getState();
    ui.modalOpened();
    ui.modalOpened();
    expect(selectAnyModalOpen(useUi.getState())).toBe(true);
    ui.modalClosed();
    ui.modalClosed();
    ui.modalClosed();
    expect(useUi.getState().openModals).toBe(0);
    expect(selectAnyModalOpen(useUi.getState())).toBe(false);
  });
});
