import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { BellIcon } from '@/components/icons';
import { markPrompted, mayPrompt, refreshPush, turnPushOn } from '@/lib/push';
import { selectLoggedIn, useSession } from '@/lib/session/store';
import styles from './Push.module.css';

export const PROMPT_TITLE = 'Get notified on this device';
export const PROMPT_TEXT =
  'Know at once when a colleague shares a document with you, when there is news for you, or when a course registration is confirmed, even with the app closed.';
export const PROMPT_ON = 'Turn on';
export const PROMPT_LATER = 'Not now';

/** How long a signed-in user is on a screen before the prompt is offered (never on first paint). */
export const PROMPT_DELAY_MS = 4000;

/** The prompt is offered on the home screen only: never over the sign-in flow or someone's work. */
const PROMPT_PATH = '/home';

/**
 * After sign-in, once: the app's own words about push notifications before the browser asks.
 * "Not now" dismisses it for good (the menu switch turns push on later). Also keeps the server's
 * copy of this device's subscription current at start-up.
 */
export function PushPrompt() {
  const loggedIn = useSession(selectLoggedIn);
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const quiet = pathname !== PROMPT_PATH;

  useEffect(() => {
    if (loggedIn) void refreshPush();
  }, [loggedIn]);

  useEffect(() => {
    if (!loggedIn || quiet) return;
    let live = true;
    const timer = window.setTimeout(() => {
      void mayPrompt().then((may) => {
        if (live) setOpen(may);
      });
    }, PROMPT_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [loggedIn, quiet]);

  if (!open || !loggedIn || quiet) return null;

  const answer = (on: boolean) => {
    markPrompted();
    setOpen(false);
    if (on) void turnPushOn();
  };

  return (
    <section className={styles.prompt} role="dialog" aria-labelledby="push-prompt-title" data-testid="push-prompt">
      <div className={styles.head}>
        <span className={styles.bell} aria-hidden="true">
          <BellIcon size={22} />
        </span>
        <h2 id="push-prompt-title" className={styles.title}>
          {PROMPT_TITLE}
        </h2>
      </div>
      <p className={styles.text}>{PROMPT_TEXT}</p>
      <div className={styles.actions}>
        <button type="button" className={styles.later} onClick={() => answer(false)}>
          {PROMPT_LATER}
        </button>
        <button type="button" className={styles.on} onClick={() => answer(true)}>
          {PROMPT_ON}
        </button>
      </div>
    </section>
  );
}
