import { describe, expect, it } from 'vitest';
import type { SentPage, SentShare } from '../types';
import { sentShares, sharesPath, titleFromState } from './route';

const share = (id: string): SentShare => ({
  id,
  recipient: 'a@b.example',
  sent_at: 0,
  expires_at: 0,
  revoked_at: null,
  opens: 0,
  last_opened_at: null,
  downloads: 0,
  pages: [],
  possibly_forwarded: false,
  allow_download: true,
  max_opens: null,
  state: 'active',
  sender: { id: '1', name: 'Anna' },
  item: { id: 'i', title: 'T' },
});

describe('shares routes', () => {
  it('addresses a document’s Shares screen', () => {
    expect(sharesPath('a b')).toBe('/documents/a%20b/shares');
  });

  it('takes the title handed over, if any', () => {
    expect(titleFromState({ title: 'Technique' })).toBe('Technique');
    expect(titleFromState({ title: '  ' })).toBeNull();
    expect(titleFromState(null)).toBeNull();
    expect(titleFromState('x')).toBeNull();
  });

  it('lists the loaded pages of the Sent view once each, in order', () => {
    const pages: SentPage[] = [
      { shares: [share('3'), share('2')], next: 'c' },
      { shares: [share('2'), share('1')], next: null },
    ];
    expect(sentShares(pages).map((s) => s.id)).toEqual(['3', '2', '1']);
  });
});
