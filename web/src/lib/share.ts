import { toast } from './stores/toast';

/**
 * Shares a link with the system share sheet when the browser has one,
 * otherwise copies it to the clipboard ('Link copied!').
 */
export async function shareLink(title: string, url: string = window.location.href): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast.dark('Link copied!');
  } catch {
    toast.danger('Cannot perform operation');
  }
}
