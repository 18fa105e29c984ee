import type { DocItem, FolderNode } from '../types';

/** A row of the move dialog's tree; `id` null is the root 'My docs'. */
export interface TreeRow {
  id: string | null;
  name: string;
  depth: number;
  disabled: boolean;
}

export const MOVE_ROOT_LABEL = 'My docs';

function collectIds(node: FolderNode, into: Set<string>): void {
  into.add(node.id);
  for (const child of node.folders) collectIds(child, into);
}

function findNode(nodes: FolderNode[], id: string): FolderNode | null {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.folders, id);
    if (found) return found;
  }
  return null;
}

/**
 * Destinations the move dialog disables: a folder cannot be moved into itself
 * or below itself, and the place the item already is in is no move at all.
 * `parent` is the folder the item is listed in (null for the root).
 */
export function disabledDestinations(
  tree: FolderNode[],
  item: Pick<DocItem, 'id' | 'type'>,
  parent: string | null,
): Set<string | null> {
  const disabled = new Set<string | null>([parent]);
  if (item.type === 'folder') {
    const source = findNode(tree, item.id);
    const ids = new Set<string>([item.id]);
    if (source) collectIds(source, ids);
    for (const id of ids) disabled.add(id);
  }
  return disabled;
}

/** The tree as indented rows, the root 'My docs' first. */
export function treeRows(tree: FolderNode[], disabled: Set<string | null>): TreeRow[] {
  const rows: TreeRow[] = [{ id: null, name: MOVE_ROOT_LABEL, depth: 0, disabled: disabled.has(null) }];
  const walk = (nodes: FolderNode[], depth: number) => {
    for (const node of nodes) {
      rows.push({ id: node.id, name: node.name, depth, disabled: disabled.has(node.id) });
      walk(node.folders, depth + 1);
    }
  };
  walk(tree, 1);
  return rows;
}
