/** Where the authorization server's endpoints live (oauth/provider.ts mounts them; metadata and docs name them). */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  consent: '/oauth/consent',
} as const;
