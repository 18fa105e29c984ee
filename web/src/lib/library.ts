import { toast } from './stores/toast';
import { tokenStore } from './storage';

export const FILE_ERROR = 'An error occurred while obtaining the file';

/**
 * Opens a library document (a signed-in API address such as /api/library/1/file)
 * in a new tab. The file needs the bearer token, so it is fetched here and shown
 * from a local object address; the tab is opened first so pop-up blockers let it through.
 */
export async function openLibraryFile(url: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const token = tokenStore.get();
    const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const blob = await response.blob();
    const objectUrl = URL.createObjectURL(blob);
    if (tab) tab.location.href = objectUrl;
    else window.location.assign(objectUrl);
    // The tab keeps its own copy once loaded.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  } catch {
    tab?.close();
    toast.danger(FILE_ERROR);
  }
}
