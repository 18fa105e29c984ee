import { describe, expect, it } from 'vitest';
import { menuActions, shareKind } from './actions';

const ALL = ['delete', 'move', 'move_to_mydocs', 'save_to_mydocs', 'external_share', 'internal_share', 'rename'];

describe('menuActions', () => {
  it('orders a file with every action as spec section 4 says, then history and shares', () => {
    expect(menuActions({ type: 'file', actions: ALL })).toEqual([
      'open',
      'rename',
      'download',
      'internal_share',
      'external_share',
      'save_to_mydocs',
      'move_to_mydocs',
      'move',
      'delete',
      'history',
      'shares',
    ]);
  });

  it('offers Shares only with the right to share a file externally', () => {
    expect(menuActions({ type: 'file', actions: ['external_share'] })).toContain('shares');
    expect(menuActions({ type: 'file', actions: ['internal_share'] })).not.toContain('shares');
    expect(menuActions({ type: 'folder', actions: ['external_share'] })).not.toContain('shares');
  });

  it('always gives files Open and Download, even with no actions', () => {
    expect(menuActions({ type: 'file', actions: [] })).toEqual(['open', 'download', 'history']);
  });

  it('never gives folders Open, Download or an external share', () => {
    expect(menuActions({ type: 'folder', actions: ALL })).toEqual([
      'rename',
      'internal_share',
      'save_to_mydocs',
      'move_to_mydocs',
      'move',
      'delete',
      'history',
    ]);
  });

  it('offers storage_internal_share as the internal share, once', () => {
    const menu = menuActions({ type: 'file', actions: ['storage_internal_share', 'internal_share'] });
    expect(menu.filter((a) => a === 'internal_share')).toHaveLength(1);
    expect(menuActions({ type: 'file', actions: ['storage_internal_share'] })).toContain('internal_share');
  });

  it('ignores unknown actions', () => {
    expect(menuActions({ type: 'file', actions: ['print', 'open'] })).toEqual(['open', 'download', 'history']);
  });
});

describe('shareKind', () => {
  it('picks the call behind a share', () => {
    expect(shareKind({ type: 'folder', actions: ['internal_share'] }, 'internal_share')).toBe('folder');
    expect(shareKind({ type: 'file', actions: ['internal_share'] }, 'internal_share')).toBe('internal');
    expect(shareKind({ type: 'file', actions: ['internal_share', 'storage_internal_share'] }, 'internal_share')).toBe(
      'storage',
    );
    expect(shareKind({ type: 'file', actions: ['external_share'] }, 'external_share')).toBe('external');
  });
});
