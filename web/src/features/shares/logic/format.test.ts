import { describe, expect, it } from 'vitest';
import { downloadsLine, formatDwell, opensLine, pageLines, revokeQuestion, stateLabel, stateLine } from './format';

describe('shares texts', () => {
  it('writes dwell as minutes and seconds', () => {
    expect(formatDwell(0)).toBe('0:00');
    expect(formatDwell(42)).toBe('0:42');
    expect(formatDwell(725)).toBe('12:05');
    expect(formatDwell(3723)).toBe('1:02:03');
    expect(formatDwell(-4)).toBe('0:00');
  });

  it('lists pages in page order', () => {
    expect(
      pageLines([
        { page: 3, seconds: 5 },
        { page: 1, seconds: 42 },
      ]),
    ).toEqual(['p. 1 · 0:42', 'p. 3 · 0:05']);
  });

  it('says how often a link was opened and downloaded', () => {
    expect(opensLine({ opens: 0, max_opens: null })).toBe('Not opened yet');
    expect(opensLine({ opens: 1, max_opens: null })).toBe('Opened 1 time');
    expect(opensLine({ opens: 2, max_opens: 5 })).toBe('Opened 2 times (limit 5)');
    expect(downloadsLine({ downloads: 0, allow_download: true })).toBe('Not downloaded');
    expect(downloadsLine({ downloads: 1, allow_download: true })).toBe('Downloaded 1 time');
    expect(downloadsLine({ downloads: 0, allow_download: false })).toBe('View only');
  });

  it('says where the link stands', () => {
    expect(stateLine({ state: 'active', expires_at: 0, revoked_at: null })).toMatch(/^Expires /);
    expect(stateLine({ state: 'expired', expires_at: 0, revoked_at: null })).toMatch(/^Expired /);
    expect(stateLine({ state: 'revoked', expires_at: 0, revoked_at: 1000 })).toMatch(/^Revoked /);
    expect(stateLine({ state: 'used_up', expires_at: 0, revoked_at: null })).toBe('Open limit reached');
    expect(stateLine({ state: 'ended', expires_at: 0, revoked_at: null })).toBe('Document withdrawn');
    // A state this app does not know yet shows as the server names it.
    expect(stateLabel('paused')).toBe('paused');
    expect(stateLabel('toString')).toBe('toString');
  });

  it('asks before revoking in the contract’s words', () => {
    expect(revokeQuestion('dr.b@clinic.example')).toBe(
      'Revoke this link? dr.b@clinic.example will no longer be able to open it.',
    );
  });
});
