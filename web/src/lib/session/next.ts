import { decideDestination, type Destination } from './destination';
import { launchLink, notificationLink } from './links';
import { useSession } from './store';

/** The destination for the current session and stored links, without side effects. */
export function peekDestination(): Destination {
  const { needAcceptTerms, onboarding, updateId } = useSession.getState();
  return decideDestination({
    needAcceptTerms,
    onboarding,
    updateId,
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
