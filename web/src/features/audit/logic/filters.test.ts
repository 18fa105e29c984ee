import { describe, expect, it } from 'vitest';
import { activityQuery, dayToIso, EMPTY_ACTIVITY_FILTERS, EMPTY_ITEM_FILTERS, itemsQuery, typeLabel } from './filters';

describe('audit filters', () => {
  it('sends only what is filled in', () => {
    expect(itemsQuery(EMPTY_ITEM_FILTERS)).toEqual({
      q: undefined,
      owner: undefined,
      type: undefined,
      deleted: undefined,
      date: undefined,
      from: undefined,
      to: undefined,
    });
    expect(activityQuery(EMPTY_ACTIVITY_FILTERS)).toEqual({
      user: undefined,
      action: undefined,
      from: undefined,
      to: undefined,
    });
  });

  it('reads the status and includes the whole last day', () => {
    const query = itemsQuery({
      ...EMPTY_ITEM_FILTERS,
      q: ' board ',
      status: 'deleted',
      from: '2026-03-01',
      to: '2026-03-01',
    });
    expect(query.q).toBe('board');
    expect(query.deleted).toBe(true);
    expect(query.date).toBe('created');
    expect(new Date(String(query.to)).getTime() - new Date(String(query.from)).getTime()).toBe(24 * 3600 * 1000);
    expect(itemsQuery({ ...EMPTY_ITEM_FILTERS, status: 'current' }).deleted).toBe(false);
  });

  it('ignores dates that are not dates', () => {
    expect(dayToIso('yesterday')).toBeUndefined();
    expect(activityQuery({ ...EMPTY_ACTIVITY_FILTERS, from: 'soon' }).from).toBeUndefined();
  });

  it('names types', () => {
    expect(typeLabel({ type: 'folder' })).toBe('Folder');
    expect(typeLabel({ type: 'file', format: 'pdf' })).toBe('PDF');
    expect(typeLabel({ type: 'file', format: null })).toBe('File');
  });
});
