import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { registerSecret } from './log-sink.ts';

/**
 * The MCP SDK's OAuth client provider as an MCP client application implements it, in memory: it keeps what
 * the SDK hands it and records where the SDK wants the user's browser to go (the test's browser stand-in
 * then completes the consent).
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  authorizationUrl: URL | undefined;
  readonly clientMetadataUrl?: string;
  private readonly redirect: string;
  private readonly name: string;

  constructor(options: { redirectUrl: string; clientName: string; clientMetadataUrl?: string }) {
    this.redirect = options.redirectUrl;
    this.name = options.clientName;
    if (options.clientMetadataUrl) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    registerSecret(tokens.access_token);
    registerSecret(tokens.refresh_token);
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}
