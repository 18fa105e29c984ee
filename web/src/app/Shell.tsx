import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { Loader } from '@/components/Loader';
import { OfflineBanner } from '@/components/offline/OfflineBanner';
import { UpdateToast } from '@/components/offline/UpdateToast';
import { PushPrompt } from '@/components/push/PushPrompt';
import { TabBar } from '@/components/tabbar/TabBar';
import { Toasts } from '@/components/toast/Toasts';
import { checkWithdrawn, useWithdrawnGate } from '@/lib/offline';
import { checkAccess, showsTabBar } from '@/lib/session/access';
import { keepLinkForLater } from '@/lib/session/links';
import { logout } from '@/lib/session/logout';
import { selectLoggedIn, useSession } from '@/lib/session/store';
import { dismissErrorsOfPreviousScreen, toast } from '@/lib/stores/toast';
import styles from './Shell.module.css';

/** The first location of a page load has this key in react-router. */
const INITIAL_LOCATION_KEY = 'default';

export const PLEASE_SIGN_IN = 'Please sign in';

/** Logged out on a private route: log out fully and return to the login screen. */
function BackToLogin({ launch }: { launch: string | null }) {
  useEffect(() => {
    void logout();
    // The app was opened on this link: ask to sign in, and show the link after login.
    // (Other ways here, such as an expired session, bring their own message.)
    if (launch) {
      keepLinkForLater(launch);
      toast.danger(PLEASE_SIGN_IN);
    }
  }, [launch]);
  return <Navigate to="/login" replace />;
}

/** Layout of every route: the 400 px column, the route guard, the tab bar and the toasts. */
export function Shell() {
  const location = useLocation();
  const loggedIn = useSession(selectLoggedIn);
  const access = checkAccess(location.pathname, loggedIn);
  const withTabBar = access.allow && showsTabBar(location.pathname, location.search, loggedIn);
  // Documents withdrawn while the device was away are purged before any screen shows content.
  const gate = useWithdrawnGate((s) => s.status);
  const rechecking = useWithdrawnGate((s) => s.rechecking);
  const gated = loggedIn && access.allow && gate !== 'done';
  useEffect(() => {
    if (loggedIn) void checkWithdrawn();
  }, [loggedIn]);
  // The auditor's workspace and the content console are desk tools: they may use a wider column.
  const wide = /^\/(audit|console)(\/|$)/i.test(location.pathname);

  // A new screen: the errors of the previous one go (spec section 8 toasts answer an action).
  useEffect(() => {
    dismissErrorsOfPreviousScreen(location.pathname);
  }, [location.pathname]);

  // The call-to-action addresses of this session (support, privacy...), kept for the next login screen.
  useEffect(() => {
    // Loaded apart so that the first screen's bundle does not carry it.
    if (loggedIn) void import('@/lib/cta').then(({ loadCtaUrls }) => loadCtaUrls());
  }, [loggedIn]);

  return (
    <div className={styles.app} data-tabbar={withTabBar ? 'true' : 'false'} data-wide={wide ? 'true' : undefined}>
      <OfflineBanner />
      {gated ? (
        <Loader full label="Checking for withdrawn documents" />
      ) : access.allow ? (
        <Suspense fallback={<Loader full />}>
          {loggedIn && rechecking && <Loader full label="Checking for withdrawn documents" />}
          <div className={styles.content} hidden={loggedIn && rechecking}>
            <Outlet />
          </div>
        </Suspense>
      ) : (
        <BackToLogin
          launch={
            location.key === INITIAL_LOCATION_KEY ? `${location.pathname}${location.search}${location.hash}` : null
          }
        />
      )}
      {withTabBar && <TabBar />}
      <Toasts />
      <UpdateToast />
      <PushPrompt />
      <ScrollRestoration />
    </div>
  );
}
