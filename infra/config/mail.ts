import { isIP } from 'node:net';
import { ConfigError, str, url, type Env } from './parsers.ts';
import type { Config, KeylessConfig } from './types.ts';

/** The default sender: alerts@ the public host (localhost when BASE_URL names an IP address). */
function mailFrom(env: Env, baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const domain = isIP(host.replace(/^\[|\]$/g, '')) ? 'localhost' : host;
  const value = str(env, 'MAIL_FROM', `WebPerf alerts <alerts@${domain}>`);
  if (/[\r\n]/.test(value) || !/@/.test(value))
    throw new ConfigError(
      'MAIL_FROM',
      `must be an e-mail address, optionally with a name (Name <address>), got "${value}"`,
    );
  return value;
}

/** OPERATOR_EMAIL: one plain address (no name, no line breaks). */
function operatorEmail(env: Env, baseUrl: string, production: boolean): string | null {
  const host = new URL(baseUrl).hostname;
  const domain = isIP(host.replace(/^\[|\]$/g, '')) ? 'localhost' : host;
  const value = env.OPERATOR_EMAIL?.trim() || (production ? '' : `operators@${domain}`);
  if (!value) return null;
  if (!/^[^\s@<>"',;]+@[^\s@<>"',;]+$/.test(value) || value.length > 254)
    throw new ConfigError('OPERATOR_EMAIL', `must be one e-mail address, got "${value}"`);
  return value;
}

/** The worker, the ingest and the api send e-mail, so they need SMTP_URL; in production there is no default. */
export function requireSmtpUrl(config: Pick<KeylessConfig, 'mail'>): string {
  if (!config.mail.smtpUrl)
    throw new ConfigError(
      'SMTP_URL',
      'is required in production for the worker, the ingest and the api (alert, monthly-limit and account e-mail), e.g. smtps://user:password@smtp.example.com:465',
    );
  return config.mail.smtpUrl;
}

export function loadMail(env: Env, baseUrl: string, production: boolean): Config['mail'] {
  return {
    smtpUrl: env.SMTP_URL?.trim()
      ? url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:'])
      : production
        ? null
        : 'smtp://127.0.0.1:2525',
    from: mailFrom(env, baseUrl),
    operatorEmail: operatorEmail(env, baseUrl, production),
  };
}
