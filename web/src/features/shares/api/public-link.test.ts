import { describe, expect, it, vi } from 'vitest';
import { fetchLinkFile, getLinkInfo, linkFileUrl, parseLinkInfo, sendBeacon } from './public-link';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const INFO = {
  company: 'Orthowell',
  sender: { name: 'Anna Rossi' },
  sent_at: 1_772_355_600_000,
  expires_at: 1_772_960_400_000,
  title: 'Surgical technique',
  kind: 'pdf',
  allow_download: true,
  size: 1234,
};

describe('the link page calls', () => {
  it('reads the link without any credential, and parses what the contract says', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(json(200, INFO));
    const result = await getLinkInfo('tok/en', fetchMock);
    expect(result).toEqual({ status: 'live', info: INFO });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/s/tok%2Fen');
    expect(init?.credentials).toBe('omit');
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
  });

  it('tells a link taken back (with or without a replacement), an unknown one, and a failure apart', async () => {
    const gone = { error: 'This link is no longer available.', state: 'revoked', replacement: null };
    expect(await getLinkInfo('t', vi.fn<typeof fetch>().mockResolvedValue(json(410, gone)))).toEqual({
      status: 'gone',
      replacement: false,
    });
    const replaced = { ...gone, state: 'ended', replacement: 'item-2' };
    expect(await getLinkInfo('t', vi.fn<typeof fetch>().mockResolvedValue(json(410, replaced)))).toEqual({
      status: 'gone',
      replacement: true,
    });
    const missing = json(404, { error: 'This link does not exist.' });
    expect(await getLinkInfo('t', vi.fn<typeof fetch>().mockResolvedValue(missing))).toEqual({ status: 'missing' });
    expect((await getLinkInfo('t', vi.fn<typeof fetch>().mockResolvedValue(json(429, {})))).status).toBe('failed');
    expect((await getLinkInfo('t', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('offline')))).status).toBe(
      'failed',
    );
    // A 200 that is not a link's details is no link to show.
    expect((await getLinkInfo('t', vi.fn<typeof fetch>().mockResolvedValue(json(200, { kind: 'doc' })))).status).toBe(
      'failed',
    );
  });

  it('parses the details defensively', () => {
    expect(parseLinkInfo(null)).toBeNull();
    expect(parseLinkInfo({ ...INFO, kind: 'docx' })).toBeNull();
    expect(parseLinkInfo({ title: 'X', kind: 'xls' })).toEqual({
      company: '',
      sender: { name: '' },
      sent_at: 0,
      expires_at: 0,
      title: 'X',
      kind: 'xls',
      allow_download: false,
      size: 0,
    });
  });

  it('asks for the file of this view, to show or to save', async () => {
    expect(linkFileUrl('abc', 'view_1', false)).toBe('/api/s/abc/file?view=view_1');
    expect(linkFileUrl('abc', 'view_1', true)).toBe('/api/s/abc/file?view=view_1&download=1');
    const pdf = new Response(new Blob(['%PDF-1.4']), {
      status: 200,
      headers: { 'Content-Disposition': 'attachment; filename="technique.pdf"' },
    });
    const result = await fetchLinkFile('abc', 'view_1', true, vi.fn<typeof fetch>().mockResolvedValue(pdf));
    expect(result.status).toBe('ok');
    if (result.status === 'ok') {
      expect(result.fileName).toBe('technique.pdf');
      expect(await result.blob.text()).toBe('%PDF-1.4');
    }
    const viewOnly = json(403, { error: 'The sender allowed viewing only.' });
    expect(await fetchLinkFile('abc', 'v', true, vi.fn<typeof fetch>().mockResolvedValue(viewOnly))).toEqual({
      status: 'view_only',
    });
    const gone = json(410, { error: 'This link is no longer available.', state: 'used_up', replacement: null });
    expect(await fetchLinkFile('abc', 'v', false, vi.fn<typeof fetch>().mockResolvedValue(gone))).toEqual({
      status: 'gone',
      replacement: false,
    });
  });

  it('sends reports with sendBeacon, and with a keepalive fetch when the browser refuses', () => {
    const body = { view: 'v'.repeat(20), seq: 1, pages: [{ page: 1, seconds: 0 }] };
    const beacon = vi.fn(() => true);
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response(null, { status: 204 }));
    sendBeacon('abc', body, { sendBeacon: beacon, fetch: fetchMock });
    expect(beacon).toHaveBeenCalledWith('/api/s/abc/beacon', JSON.stringify(body));
    expect(fetchMock).not.toHaveBeenCalled();

    sendBeacon('abc', body, { sendBeacon: () => false, fetch: fetchMock });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/s/abc/beacon');
    expect(init?.keepalive).toBe(true);
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('omit');
    expect(JSON.parse(init?.body as string)).toEqual(body);
  });
});
