import { describe, expect, it, vi } from 'vitest';
import { memoryStore, STORAGE_KEYS, tokenStoreOn } from '../storage';
import { createApiClient } from './client';
import { ApiError, safeServerMessage } from './errors';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function setup(responses: Response[], initialToken?: string) {
  const store = memoryStore(initialToken ? { [STORAGE_KEYS.token]: initialToken } : {});
  const tokens = tokenStoreOn(store);
  const fetchImpl = vi.fn<typeof fetch>();
  for (const response of responses) fetchImpl.mockResolvedValueOnce(response);
  const client = createApiClient({ baseUrl: '/api', tokens, fetchImpl });
  return { client, tokens, fetchImpl };
}

function sentHeaders(fetchImpl: ReturnType<typeof vi.fn<typeof fetch>>, call = 0): Headers {
  const init = fetchImpl.mock.calls[call]?.[1];
  return new Headers(init?.headers);
}

describe('api client', () => {
  it('sends the stored token as a bearer token', async () => {
    const { client, fetchImpl } = setup([jsonResponse(200, { ok: 1 })], 'abc');
    await client.get('/users/get-data');
    expect(fetchImpl.mock.calls[0]?.[0]).toBe('/api/users/get-data');
    expect(sentHeaders(fetchImpl).get('Authorization')).toBe('Bearer abc');
  });

  it('sends no Authorization header without a token', async () => {
    const { client, fetchImpl } = setup([jsonResponse(200, {})]);
    await client.get('users/check-domain-new', { email: 'a@b.com' });
    expect(fetchImpl.mock.calls[0]?.[0]).toBe('/api/users/check-domain-new?email=a%40b.com');
    expect(sentHeaders(fetchImpl).has('Authorization')).toBe(false);
  });

  it('replaces the stored token with the jwt of a response', async () => {
    const { client, tokens } = setup([jsonResponse(200, { user: {}, jwt: 'new-token' })], 'old-token');
    await client.post('/users/welcome');
    expect(tokens.get()).toBe('new-token');
  });

  it('uses the replaced token on the next call', async () => {
    const { client, fetchImpl } = setup([jsonResponse(200, { jwt: 'second' }), jsonResponse(200, {})], 'first');
    await client.post('/users/login', { username: 'a', password: 'b' });
    await client.get('/users/get-data');
    expect(sentHeaders(fetchImpl, 1).get('Authorization')).toBe('Bearer second');
  });

  it('keeps the token when the response has no jwt, or an empty one', async () => {
    const { client, tokens } = setup([jsonResponse(200, { result: true }), jsonResponse(200, { jwt: '' })], 'keep');
    await client.get('/users/accept-terms');
    await client.get('/users/accept-terms');
    expect(tokens.get()).toBe('keep');
  });

  it('takes a jwt from an error response too', async () => {
    const { client, tokens } = setup([jsonResponse(409, { message: 'conflict', jwt: 'fresh' })], 'old');
    await expect(client.get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(tokens.get()).toBe('fresh');
  });

  it('sends a JSON body with the JSON content type', async () => {
    const { client, fetchImpl } = setup([jsonResponse(200, {})]);
    await client.post('/users/login', { username: 'u', password: 'p' });
    const init = fetchImpl.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ username: 'u', password: 'p' }));
    expect(sentHeaders(fetchImpl).get('Content-Type')).toBe('application/json');
  });

  it('turns an error response into an ApiError with the server message', async () => {
    const { client } = setup([jsonResponse(429, { message: 'Too many attempts' })]);
    const error = await client.post('/users/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(safeServerMessage(error)).toBe('Too many attempts');
  });

  it('reports a 401 to the registered handler', async () => {
    const { client } = setup([jsonResponse(401, { message: 'expired' })], 'tok');
    const handler = vi.fn();
    client.onUnauthorized(handler);
    await expect(client.get('/users/get-data')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('does not report a 401 for a call that allows it (the login call)', async () => {
    const { client } = setup([jsonResponse(401, { message: 'Wrong credentials' })]);
    const handler = vi.fn();
    client.onUnauthorized(handler);
    await expect(client.post('/users/login', {}, { allowUnauthorized: true })).rejects.toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
  });

  it('stops calling a handler once it is removed', async () => {
    const { client } = setup([jsonResponse(401, {})]);
    const handler = vi.fn();
    const off = client.onUnauthorized(handler);
    off();
    await expect(client.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
  });

  it('maps a network failure to status 0', async () => {
    const store = tokenStoreOn(memoryStore());
    const client = createApiClient({
      baseUrl: '/api',
      tokens: store,
      fetchImpl: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(client.get('/x')).rejects.toMatchObject({ status: 0 });
  });

  it('ignores a non-JSON error body', async () => {
    const { client } = setup([new Response('<html>Bad gateway</html>', { status: 502 })]);
    const error = await client.get('/x').catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(502);
    expect(safeServerMessage(error)).toBe('');
  });

  it('sanitises the server message it exposes for display', async () => {
    const { client } = setup([jsonResponse(400, { message: '<script>x</script>' })]);
    const error = await client.get('/x').catch((e: unknown) => e);
    expect(safeServerMessage(error)).toBe('');
  });

  it('builds query strings, skipping empty values and repeating arrays', () => {
    const { client } = setup([]);
    expect(client.url('/news', { year: 2021, q: undefined, tag: ['a', 'b'], x: null })).toBe(
      '/api/news?year=2021&tag=a&tag=b',
    );
  });

  it('reports a 403 with the terms code to the terms handlers only', async () => {
    const { client } = setup([
      jsonResponse(403, { message: 'Accept the terms and conditions to continue', code: 'terms_not_accepted' }),
      jsonResponse(403, { message: 'Not yours' }),
    ]);
    const terms = vi.fn();
    const unauthorized = vi.fn();
    client.onTermsRequired(terms);
    client.onUnauthorized(unauthorized);
    await client.get('/home').catch(() => undefined);
    expect(terms).toHaveBeenCalledTimes(1);
    await client.get('/documents').catch(() => undefined);
    expect(terms).toHaveBeenCalledTimes(1);
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('sends a fresh Idempotency-Key with every command, the given one on a retry, none on reads', async () => {
    const { client, fetchImpl } = setup([
      jsonResponse(200, {}),
      jsonResponse(200, {}),
      jsonResponse(200, {}),
      jsonResponse(200, {}),
    ]);
    await client.post('/folders', { name: 'A' });
    await client.post('/folders', { name: 'A' });
    await client.post('/folders', { name: 'A' }, { idempotencyKey: 'kept-key' });
    await client.get('/documents/my');
    const first = sentHeaders(fetchImpl, 0).get('Idempotency-Key');
    const second = sentHeaders(fetchImpl, 1).get('Idempotency-Key');
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).not.toBe(first);
    expect(sentHeaders(fetchImpl, 2).get('Idempotency-Key')).toBe('kept-key');
    expect(sentHeaders(fetchImpl, 3).has('Idempotency-Key')).toBe(false);
  });
});
