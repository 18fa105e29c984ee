import type { DocItem } from '../types';

/** Address that asks the server for the file as an attachment. */
export function downloadUrl(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}download=1`;
}

/** PDFs open in the in-app viewer; anything else (XLS) is downloaded. */
export function opensInViewer(contentType: string, fileName: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/pdf') return true;
  if (type && type !== 'application/octet-stream') return false;
  return fileName.toLowerCase().endsWith('.pdf');
}

/** Name a downloaded file is saved under. */
export function downloadName(item: Pick<DocItem, 'name' | 'title'>): string {
  return (item.name || item.title || 'document').replace(/[\\/:*?"<>|]+/g, '_');
}

/**
 * What a rename selects at first: a file's name without its extension (`Notes.v2.pdf` -> `Notes.v2`),
 * so typing keeps the type; a folder's whole name, as a name starting with a dot.
 */
export function baseNameSelection(name: string, isFile: boolean): [number, number] {
  const dot = name.lastIndexOf('.');
  if (!isFile || dot <= 0 || dot === name.length - 1) return [0, name.length];
  return [0, dot];
}

/** Shown on a tile: the title, else the name. */
export function displayName(item: Pick<DocItem, 'name' | 'title'>): string {
  return item.title?.trim() || item.name;
}

export function formatSize(bytes: number | null | undefined): string | null {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return null;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The labels a tile shows, by flag (spec 2.16). */
export function itemLabels(item: Pick<DocItem, 'for_internal_use' | 'controlled_release' | 'upon_request'>): string[] {
  const labels: string[] = [];
  if (item.for_internal_use) labels.push('For internal use');
  if (item.controlled_release) labels.push('Controlled release');
  if (item.upon_request) labels.push('Upon request');
  return labels;
}

/** Second line of a tile: subtitle, size and languages, or how many items a folder holds. */
export function itemMeta(
  item: Pick<DocItem, 'type' | 'children' | 'owner' | 'subtitle' | 'size' | 'languages_in_file'>,
): string {
  if (item.type === 'folder') {
    const n = item.children ?? null;
    const count = n === null ? '' : `${n} ${n === 1 ? 'item' : 'items'}`;
    return [count, item.owner].filter(Boolean).join(' · ');
  }
  return [item.subtitle, formatSize(item.size), item.languages_in_file].filter(Boolean).join(' · ');
}
