import { decideDestination, type Destination } from './destination';
import { launchLink, notificationLink } from './links';
import { useSession } from './store';

/**
 * App updates whose wizard failed to load in this page session: they are not
 * offered again until a reload, so a failing update cannot send the user back
 * and forth between Home and the wizard.
 */
const failedUpdates = new Set<number>();

export function skipUpdateAfterFailure(id: number): void {
  failedUpdates.add(id);
}

/** The destination for the current session and stored links, without side effects. */
export function peekDestination(): Destination {
  const { needAcceptTerms, onboarding, updateId } = useSession.getState();
  return decideDestination({
    needAcceptTerms,
    onboarding,
    updateId: updateId !== null && failedUpdates.has(updateId) ? null : updateId,
    launchLink: launchLink.get(),
    notificationLink: notificationLink.get(),
  });
}

/** The destination, consuming the stored link it uses (a link is followed once). */
export function takeDestination(): string {
  const destination = peekDestination();
  if (destination.reason === 'launch') launchLink.clear();
  if (destination.reason === 'notification') notificationLink.clear();
  return destination.path;
}
