// A real OpenID Connect provider for the single sign-on tests: node-oidc-provider with its
// development sign-in pages (any name signs in as that account; the password is not checked).
// Usage: node server.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI
// Accounts: the name typed is the subject; "<name>@example.test" its email; a name starting with
// "admin" is in the group "sre-admins", every other in "sre".
import Provider from 'oidc-provider';

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
if (!port || !clientId || !clientSecret || !redirectUri) {
  console.error('usage: node server.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI');
  process.exit(2);
}

const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  scopes: ['openid', 'email', 'profile', 'groups'],
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'preferred_username'],
    groups: ['groups'],
  },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  cookies: { keys: ['stallscope-test-oidc-provider'] },
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({
      sub: id,
      email: `${id}@example.test`,
      email_verified: true,
      name: id,
      preferred_username: id,
      groups: id.startsWith('admin') ? ['sre-admins'] : ['sre'],
    }),
  }),
});

provider.listen(Number(port), '127.0.0.1', () => {
  console.log(`oidc provider ready at ${issuer}`);
});
