// A real OpenID Connect provider for the tests: panva's certified `oidc-provider` with its
// development sign-in screens. Nothing here decides what the protocol means; it only says who
// the accounts are.
//
// Environment:
//   OIDC_PORT           port to listen on (0: any free one)
//   OIDC_REDIRECT_URIS  comma-separated redirect addresses of the client `companion`
//   OIDC_CLIENT_SECRET  the client's secret
//   OIDC_ID_TOKEN_CLAIMS  "true": scope claims (email, names) also go into the ID token;
//                         otherwise they are only at UserInfo (the conformant default)
//   OIDC_ACCOUNTS       JSON object: login -> claims ({sub, email, email_verified, given_name, ...})
//
// Each start signs with a fresh key (new key id), so a restart is a key rotation.
// Prints `issuer=http://127.0.0.1:PORT` on stdout once it listens.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const accounts = JSON.parse(process.env.OIDC_ACCOUNTS || '{}');
const redirectUris = (process.env.OIDC_REDIRECT_URIS || '').split(',').filter(Boolean);
const idTokenClaims = process.env.OIDC_ID_TOKEN_CLAIMS === 'true';

const server = createServer();
await new Promise((done) => server.listen(Number(process.env.OIDC_PORT || 0), '127.0.0.1', done));
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  clients: [
    {
      client_id: 'companion',
      client_secret: process.env.OIDC_CLIENT_SECRET || 'client-secret',
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['given_name', 'family_name', 'name'],
  },
  conformIdTokenClaims: !idTokenClaims,
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
  async findAccount(_ctx, id) {
    const account = accounts[id];
    if (!account) return undefined;
    return {
      accountId: id,
      async claims() {
        return { ...account, sub: account.sub ?? id };
      },
    };
  },
});
provider.proxy = false;

server.on('request', provider.callback());
process.stdout.write(`issuer=${issuer}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
