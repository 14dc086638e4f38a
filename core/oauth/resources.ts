/**
 * The protected resources OAuth access tokens are issued for (RFC 8707 resource indicators). A token is bound
 * to one: a token for the MCP server is refused by the REST API and the other way round. An app that names no
 * resource gets a REST API token.
 */
export type ResourceKind = 'api' | 'mcp';

export const resourceUrl = (baseUrl: string, kind: ResourceKind): string =>
  kind === 'api' ? `${baseUrl}/api/v1` : `${baseUrl}/mcp`;

export const resourceKindOf = (baseUrl: string, url: string): ResourceKind | undefined =>
  url === resourceUrl(baseUrl, 'api') ? 'api' : url === resourceUrl(baseUrl, 'mcp') ? 'mcp' : undefined;

/** RFC 9728 protected resource metadata of a resource, at its well-known address. */
export const protectedResourceMetadataUrl = (baseUrl: string, kind: ResourceKind): string => {
  const url = new URL(resourceUrl(baseUrl, kind));
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
};
