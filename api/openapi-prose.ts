import { OAUTH_PATHS } from '../core/oauth/paths.ts';

/**
 * The parts of the API that are not REST operations, described in prose for the OpenAPI document (and so
 * for the reference page at /docs): OAuth 2.1 for apps and the MCP server.
 */
export function prose(baseUrl: string): string {
  return `

## OAuth 2.1 for apps

Apps that act for a user (Starter plan or higher) use OAuth 2.1 with public clients and PKCE (\`S256\` only).
Discovery: \`${baseUrl}/.well-known/oauth-authorization-server\` (RFC 8414). Endpoints: authorize
\`${baseUrl}${OAUTH_PATHS.authorize}\` (GET; the user signs in and approves on a consent page), token
\`${baseUrl}${OAUTH_PATHS.token}\` (\`authorization_code\`, \`refresh_token\`), revocation \`${baseUrl}${OAUTH_PATHS.revoke}\`.
A client is either registered dynamically at \`${baseUrl}${OAUTH_PATHS.register}\` (RFC 7591, \`token_endpoint_auth_method: none\`)
or identified by an HTTPS URL serving its Client ID Metadata Document. Scopes: \`read\` (GET operations) and
\`write\` (everything else); an app that asks for none gets both. Resource indicators (RFC 8707): \`${baseUrl}/api/v1\`
(the default) and \`${baseUrl}/mcp\`. Access tokens live 1 hour, refresh tokens 30 days and rotate on each use (a
refresh token used twice revokes the grant). Calls with an OAuth access token count against the user's daily limit
like calls with a personal token. Users see and revoke authorised apps on their API page.

## MCP server

\`${baseUrl}/mcp\` is a Model Context Protocol server (Streamable HTTP, stateless, JSON answers) for AI assistants.
It takes an OAuth access token for the \`${baseUrl}/mcp\` resource or a personal API token; without one it answers
401 with \`WWW-Authenticate\` pointing at \`${baseUrl}/.well-known/oauth-protected-resource/mcp\` (RFC 9728). Its
tools run the REST operations above (start and read scans, targets and their history, alerts, live-data
summaries), with the same validation, plan rules and errors; each \`tools/call\` counts one call against the daily
limit. \`tools/list\` describes them with their input schemas.`;
}
