import { SCOPES } from '../core/oauth/scopes.ts';
import { OAUTH_PATHS } from '../core/oauth/paths.ts';

/**
 * RFC 8414 authorization server metadata, written out rather than taken from the library's OpenID discovery
 * document: it says exactly what this server supports and nothing of OpenID Connect.
 */
export function authorizationServerMetadata(baseUrl: string): Record<string, unknown> {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${baseUrl}${OAUTH_PATHS.token}`,
    registration_endpoint: `${baseUrl}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${baseUrl}${OAUTH_PATHS.revoke}`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${baseUrl}/account/api`,
  };
}
