import { describe, expect, it } from 'vitest';
import { folderBackPath, folderPath, parseFolderRoute } from './route';

describe('folder route', () => {
  it('needs an id and a type among my, shared, us', () => {
    expect(parseFolderRoute('12', 'my')).toEqual({ ok: true, id: '12', type: 'my' });
    expect(parseFolderRoute('12', 'us')).toEqual({ ok: true, id: '12', type: 'us' });
    expect(parseFolderRoute(undefined, 'my')).toEqual({ ok: false });
    expect(parseFolderRoute('  ', 'my')).toEqual({ ok: false });
    expect(parseFolderRoute('12', null)).toEqual({ ok: false });
    expect(parseFolderRoute('12', 'mine')).toEqual({ ok: false });
  });

  it('goes back to the parent folder or to the tab', () => {
    expect(folderBackPath({ id: '3', name: 'Parent' }, 'shared')).toBe('/documents/folder/3?type=shared');
    expect(folderBackPath(null, 'my')).toBe('/documents?tab=my');
    expect(folderPath('a b', 'my')).toBe('/documents/folder/a%20b?type=my');
  });
});
