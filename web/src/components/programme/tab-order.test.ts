import { describe, expect, it } from 'vitest';
import { activeTab, orderTabs } from './tab-order';

describe('orderTabs', () => {
  it('keeps the order the server lists, then any tab it did not list', () => {
    const tabs = {
      contacts: { title: 'Contacts', content: {} },
      details: { title: 'Details', content: {} },
      info: { title: 'Info', content: {} },
      faq: { content: {} },
    };
    expect(orderTabs(tabs, ['info', 'contacts', 'details', 'missing', 3]).map((t) => t.key)).toEqual([
      'info',
      'contacts',
      'details',
      'faq',
    ]);
  });
  it('keeps the order of the response map when no order is sent', () => {
    const tabs = { day: { content: {} }, info: { content: {} }, activities: { content: {} } };
    expect(orderTabs(tabs).map((t) => t.key)).toEqual(['day', 'info', 'activities']);
    expect(orderTabs(tabs, null).map((t) => t.key)).toEqual(['day', 'info', 'activities']);
  });
  it('uses the titles of the response, with fallbacks', () => {
    const ordered = orderTabs({
      key: { content: {} },
      hotel: { title: 'Hotel & Transfer', content: {} },
      faq: { content: {} },
    });
    expect(ordered).toEqual([
      { key: 'key', title: 'Key messages' },
      { key: 'hotel', title: 'Hotel & Transfer' },
      { key: 'faq', title: 'Faq' },
    ]);
  });
  it('skips tabs without content', () => {
    expect(orderTabs({ info: { title: 'Info', content: null }, day: { title: 'Day by day', content: {} } })).toEqual([
      { key: 'day', title: 'Day by day' },
    ]);
    expect(orderTabs(undefined)).toEqual([]);
  });
});

describe('activeTab', () => {
  it('keeps a known tab and falls back to the first', () => {
    const ordered = orderTabs({ info: { title: 'Info', content: {} }, day: { title: 'Day by day', content: {} } });
    expect(activeTab(ordered, 'day')).toBe('day');
    expect(activeTab(ordered, 'nope')).toBe('info');
    expect(activeTab(ordered, null)).toBe('info');
    expect(activeTab([], null)).toBe('');
  });
});
