import { describe, expect, it } from 'vitest';
import { consoleKeys, consoleKeysForMessage, CONSOLE_QUERY_PREFIX, listQuery } from '../api/keys';
import {
  consoleRights,
  formatDate,
  howLabel,
  instantMs,
  labelText,
  matchesText,
  parseStatusFilter,
  statusLabel,
  statusTone,
  stepsFor,
  STATUS_FILTERS,
} from './status';

describe('console statuses', () => {
  it('names every status and keeps unknown ones readable', () => {
    expect(statusLabel('in_review')).toBe('In review');
    expect(statusLabel('withdrawn')).toBe('Withdrawn');
    expect(statusLabel('on_hold')).toBe('on hold');
    expect(statusTone('released')).toBe('green');
    expect(statusTone('withdrawn')).toBe('red');
    expect(statusTone('on_hold')).toBe('grey');
  });

  it('offers the filters of the lists and reads them from the address', () => {
    expect(STATUS_FILTERS.map((f) => f.value)).toEqual([
      '',
      'draft',
      'in_review',
      'released',
      'expiring',
      'expired',
      'withdrawn',
    ]);
    expect(parseStatusFilter('expiring')).toBe('expiring');
    expect(parseStatusFilter('approved')).toBe('');
    expect(parseStatusFilter(null)).toBe('');
  });

  it('sends only the filters that are set', () => {
    expect(listQuery('', '  ')).toEqual({ status: undefined, q: undefined });
    expect(listQuery('released', ' knee ')).toEqual({ status: 'released', q: 'knee' });
  });

  it('keeps every query under the prefix the live messages refresh', () => {
    const keys = [
      consoleKeys.libraryList({}),
      consoleKeys.libraryItem(1),
      consoleKeys.libraryHistory(1),
      consoleKeys.withdrawalReport(1),
      consoleKeys.newsList({ status: 'draft' }),
      consoleKeys.newsItem(2),
      consoleKeys.newsHistory(2),
    ];
    for (const key of keys) expect(key.slice(0, CONSOLE_QUERY_PREFIX.length)).toEqual([...CONSOLE_QUERY_PREFIX]);
  });

  it('names the queries each live message makes stale', () => {
    expect(consoleKeysForMessage('library_withdrawn', { id: 3 })).toEqual([['console', 'library']]);
    expect(consoleKeysForMessage('content_changed', { kind: 'library', ids: [3] })).toEqual([['console', 'library']]);
    expect(consoleKeysForMessage('content_changed', { kind: 'news', ids: [4] })).toEqual([['console', 'news']]);
    expect(consoleKeysForMessage('content_changed', { kind: 'products' })).toEqual([]);
    expect(consoleKeysForMessage('content_changed', null)).toEqual([]);
    expect(consoleKeysForMessage('shared_change', {})).toEqual([]);
  });

  it('filters titles by every word of the text, in any case', () => {
    expect(matchesText('Knee system surgical technique', 'KNEE tech')).toBe(true);
    expect(matchesText('Knee system surgical technique', 'knee hip')).toBe(false);
    expect(matchesText('Anything', '  ')).toBe(true);
  });

  it('words labels and how a holder had a document', () => {
    expect(labelText('controlled_release')).toBe('Controlled release');
    expect(howLabel('pinned_offline')).toBe('Kept offline');
    expect(howLabel('printed_out')).toBe('printed out');
  });

  it('reads times as RFC 3339 or milliseconds', () => {
    expect(instantMs('2026-03-01T10:00:00Z')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(instantMs(5)).toBe(5);
    expect(instantMs(null)).toBeNull();
    expect(instantMs('soon')).toBeNull();
    expect(formatDate(null)).toBe('—');
    expect(formatDate('2026-03-01T10:00:00Z')).toBe('1 Mar 2026');
  });
});

describe('console rights', () => {
  it('lets publishers publish, approvers decide, auditors only read', () => {
    expect(consoleRights('publisher')).toEqual({
      view: true,
      publish: true,
      decide: false,
      withdraw: true,
      report: false,
    });
    expect(consoleRights('approver')).toEqual({
      view: true,
      publish: false,
      decide: true,
      withdraw: true,
      report: true,
    });
    expect(consoleRights('auditor')).toEqual({
      view: true,
      publish: false,
      decide: false,
      withdraw: false,
      report: true,
    });
  });

  it('keeps everyone else out', () => {
    for (const role of ['user', 'admin', undefined, null]) expect(consoleRights(role).view).toBe(false);
  });

  it('offers only the steps a status allows', () => {
    expect(stepsFor('draft')).toMatchObject({ submit: true, decide: false, withdraw: true, report: false });
    expect(stepsFor('in_review')).toMatchObject({ submit: false, decide: true, newVersion: false });
    expect(stepsFor('withdrawn')).toMatchObject({ withdraw: false, newVersion: false, report: true });
    expect(stepsFor('expired')).toMatchObject({ withdraw: true, report: true });
  });
});
