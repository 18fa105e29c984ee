import { describe, expect, it } from 'vitest';
import type { FolderNode } from '../types';
import { disabledDestinations, treeRows } from './move';

const tree: FolderNode[] = [
  {
    id: 'visits',
    name: 'Customer visits',
    folders: [{ id: '2026', name: '2026', folders: [{ id: 'q4', name: 'Q4', folders: [] }] }],
  },
  { id: 'notes', name: 'Product notes', folders: [] },
];

describe('move destinations', () => {
  it('disables a moved folder, everything below it and where it is now', () => {
    const disabled = disabledDestinations(tree, { id: '2026', type: 'folder' }, 'visits');
    expect([...disabled].sort()).toEqual(['2026', 'q4', 'visits']);
    const rows = treeRows(tree, disabled);
    expect(rows.map((r) => [r.name, r.depth, r.disabled])).toEqual([
      ['My docs', 0, false],
      ['Customer visits', 1, true],
      ['2026', 2, true],
      ['Q4', 3, true],
      ['Product notes', 1, false],
    ]);
  });

  it('disables only the current place for a file, the root included', () => {
    const disabled = disabledDestinations(tree, { id: 'f1', type: 'file' }, null);
    expect([...disabled]).toEqual([null]);
    expect(treeRows(tree, disabled)[0]).toEqual({ id: null, name: 'My docs', depth: 0, disabled: true });
  });

  it('disables the source folder even when the tree does not list it', () => {
    const disabled = disabledDestinations(tree, { id: 'ghost', type: 'folder' }, null);
    expect(disabled.has('ghost')).toBe(true);
  });
});
