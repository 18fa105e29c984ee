import { describe, expect, it } from 'vitest';
import {
  baseNameSelection,
  displayName,
  downloadName,
  downloadUrl,
  formatSize,
  itemLabels,
  itemMeta,
  opensInViewer,
} from './file';

describe('file helpers', () => {
  it('adds download=1 to the file address', () => {
    expect(downloadUrl('/api/documents/7/file')).toBe('/api/documents/7/file?download=1');
    expect(downloadUrl('/api/documents/7/file?v=2')).toBe('/api/documents/7/file?v=2&download=1');
  });

  it('opens PDFs in the viewer and downloads the rest', () => {
    expect(opensInViewer('application/pdf', 'x.xls')).toBe(true);
    expect(opensInViewer('application/pdf; charset=binary', 'x')).toBe(true);
    expect(opensInViewer('application/vnd.ms-excel', 'x.pdf')).toBe(false);
    expect(opensInViewer('application/octet-stream', 'Report.PDF')).toBe(true);
    expect(opensInViewer('', 'sheet.xls')).toBe(false);
  });

  it('names and sizes', () => {
    expect(displayName({ title: 'Visit report', name: 'visit.pdf' })).toBe('Visit report');
    expect(displayName({ title: '', name: 'visit.pdf' })).toBe('visit.pdf');
    expect(downloadName({ title: 'x', name: 'a/b:c.pdf' })).toBe('a_b_c.pdf');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(2048)).toBe('2 KB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatSize(undefined)).toBeNull();
  });

  it('labels by flag, in the spec order', () => {
    expect(itemLabels({ for_internal_use: true, controlled_release: true, upon_request: true })).toEqual([
      'For internal use',
      'Controlled release',
      'Upon request',
    ]);
    expect(itemLabels({ for_internal_use: false, controlled_release: false, upon_request: true })).toEqual([
      'Upon request',
    ]);
  });
});

describe('itemMeta', () => {
  it('describes files by subtitle, size and languages, folders by count and owner', () => {
    expect(itemMeta({ type: 'file', subtitle: 'Knee', size: 2048, languages_in_file: 'EN' })).toBe('Knee · 2 KB · EN');
    expect(itemMeta({ type: 'file', subtitle: '', size: null })).toBe('');
    expect(itemMeta({ type: 'folder', children: 1 })).toBe('1 item');
    expect(itemMeta({ type: 'folder', children: 3, owner: 'John Miller' })).toBe('3 items · John Miller');
    expect(itemMeta({ type: 'folder' })).toBe('');
  });
});

describe('rename selection', () => {
  it('selects a file name without its extension', () => {
    expect(baseNameSelection('Notes.v2.pdf', true)).toEqual([0, 8]);
    expect(baseNameSelection('Price list.xls', true)).toEqual([0, 10]);
  });
  it('selects the whole name of a folder, or of a name without a usable extension', () => {
    expect(baseNameSelection('Q3.2026', false)).toEqual([0, 7]);
    expect(baseNameSelection('README', true)).toEqual([0, 6]);
    expect(baseNameSelection('.hidden', true)).toEqual([0, 7]);
    expect(baseNameSelection('trailing.', true)).toEqual([0, 9]);
  });
});
