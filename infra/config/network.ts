import { isIP } from 'node:net';
import { ConfigError } from './parsers.ts';

/** TRUSTED_PROXIES: comma-separated IPv4/IPv6 addresses or CIDR blocks, normalised to address/prefix. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address = '', prefix, extra] = entry.split('/');
      const family = isIP(address);
      const bits = prefix === undefined ? (family === 6 ? 128 : 32) : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (!family || extra !== undefined || !(bits >= 0 && bits <= (family === 6 ? 128 : 32))) {
        throw new ConfigError(
          'TRUSTED_PROXIES',
          `must list IP addresses or CIDR blocks (10.0.0.0/8, ::1), got "${entry}"`,
        );
      }
      return `${address}/${bits}`;
    });
}
