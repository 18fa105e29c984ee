import { describe, expect, it } from 'vitest';
import { activeTab, orderTabs } from './tab-order';

describe('orderTabs', () => {
  it('orders the tabs of the response as the spec does, unknown ones last', () => {
    const tabs = {
      contacts: { title: 'Contacts', content: {} },
      zeta: { title: 'Zeta', content: {} },
      downloads: { title: 'Downloads', content: {} },
      media: { title: 'Media', content: {} },
      info: { title: 'Info', content: {} },
      activities: { title: 'Activities', content: {} },
      faq: { content: {} },
      messages: { title: 'Key messages', content: {} },
      day: { title: 'Day by day', content: {} },
      hotel: { title: 'Hotel & Transfer', content: {} },
      details: { title: 'Details', content: {} },
    };
    expect(orderTabs(tabs).map((t) => t.key)).toEqual([
      'info', 'details', 'hotel', 'day', 'activities', 'messages', 'media', 'downloads', 'contacts', 'faq', 'zeta',
    ]);
  });
  it('uses the titles of the response, with fallbacks', () => {
    const ordered = orderTabs({ key: { content: {} }, hotel: { title: 'Hotel & Transfer', content: {} }, faq: { content: {} } });
    expect(ordered).toEqual([
      { key: 'hotel', title: 'Hotel & Transfer' },
      { key: 'key', title: 'Key messages' },
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
