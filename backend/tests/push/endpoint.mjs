// A push service for the tests: hands out subscriptions, takes pushes (RFC 8030), decrypts
// them with the `http_ece` package (RFC 8188/8291, an implementation independent of the
// server's) and checks their VAPID token (RFC 8292) with Node's own crypto.
//
//   node backend/tests/push/endpoint.mjs            -> prints {"port": N} on its first line
//   POST /subscriptions                              -> {endpoint, keys: {p256dh, auth}}
//   POST /answers/<id>  {"statuses": [503, 503], "retry_after": "0"} -> the next answers
//   GET  /received                                   -> every push received, in order
import crypto from 'node:crypto';
import http from 'node:http';
import ece from 'http_ece';

const b64url = (buf) => Buffer.from(buf).toString('base64url');
const subscriptions = new Map(); // id -> {ecdh, auth, answers: [], retryAfter}
const received = [];
let origin = '';

function checkVapid(header) {
  const result = { valid: false };
  const match = /^vapid\s+t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return { ...result, error: `not a vapid header: ${header}` };
  const [, token, k] = match;
  const [h, p, s] = token.split('.');
  try {
    const head = JSON.parse(Buffer.from(h, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const point = Buffer.from(k, 'base64url');
    if (point.length !== 65 || point[0] !== 4) return { ...result, error: 'k is not an uncompressed P-256 point' };
    const key = crypto.createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) },
      format: 'jwk',
    });
    const signed = crypto.verify(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(s, 'base64url'),
    );
    const now = Math.floor(Date.now() / 1000);
    return {
      valid: signed && head.alg === 'ES256' && claims.aud === origin && claims.exp > now && claims.exp <= now + 24 * 3600,
      signed,
      alg: head.alg,
      aud: claims.aud,
      sub: claims.sub,
      exp: claims.exp,
      k,
    };
  } catch (error) {
    return { ...result, error: String(error) };
  }
}

function body(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const server = http.createServer(async (req, res) => {
  const data = await body(req);
  const url = new URL(req.url, origin);
  if (req.method === 'POST' && url.pathname === '/subscriptions') {
    const id = crypto.randomUUID();
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16);
    subscriptions.set(id, { ecdh, auth, answers: [], retryAfter: null });
    return json(res, 200, {
      id,
      endpoint: `${origin}/push/${id}`,
      keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
    });
  }
  if (req.method === 'POST' && url.pathname.startsWith('/answers/')) {
    const sub = subscriptions.get(url.pathname.slice('/answers/'.length));
    if (!sub) return json(res, 404, {});
    const wanted = JSON.parse(data.toString() || '{}');
    sub.answers = wanted.statuses ?? [];
    sub.retryAfter = wanted.retry_after ?? null;
    return json(res, 200, {});
  }
  if (req.method === 'GET' && url.pathname === '/received') return json(res, 200, received);
  if (req.method === 'POST' && url.pathname.startsWith('/push/')) {
    const id = url.pathname.slice('/push/'.length);
    const sub = subscriptions.get(id);
    const record = {
      subscription: id,
      at: Date.now(),
      ttl: req.headers['ttl'] ?? null,
      urgency: req.headers['urgency'] ?? null,
      content_encoding: req.headers['content-encoding'] ?? null,
      vapid: checkVapid(req.headers['authorization']),
    };
    let status = sub ? (sub.answers.shift() ?? 201) : 410;
    if (sub) {
      try {
        const plain = ece.decrypt(data, {
          version: 'aes128gcm',
          privateKey: sub.ecdh,
          authSecret: b64url(sub.auth),
        });
        record.payload = JSON.parse(plain.toString('utf8'));
      } catch (error) {
        record.error = String(error);
        status = 400;
      }
    }
    record.status = status;
    received.push(record);
    const headers = {};
    if (status === 429 || status >= 500) {
      if (sub?.retryAfter !== null && sub?.retryAfter !== undefined) headers['retry-after'] = String(sub.retryAfter);
    }
    if (status === 201) headers.location = `${origin}/messages/${received.length}`;
    res.writeHead(status, headers);
    return res.end();
  }
  json(res, 404, {});
});

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const { port } = server.address();
  origin = `http://127.0.0.1:${port}`;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
