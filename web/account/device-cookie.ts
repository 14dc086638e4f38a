import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Config } from '../../infra/config.ts';
import { emailHash } from '../../services/sign-in-throttle.ts';
import { purposeKey } from '../../core/keys.ts';
import { cookieOptions, getCookie, setCookie } from '../session.ts';

/**
 * OWASP's device cookie: after a successful sign-in the browser gets `<id>.<mac>`, the MAC binding the random
 * id to the e-mail address. A browser showing a valid one for the e-mail it signs in with is a trusted device:
 * the sign-in throttle counts its failures on their own, so strangers' failures for that e-mail never lock it
 * out (services/sign-in-throttle.ts).
 */
export const DEVICE_COOKIE = 'wps_device';
const DEVICE_DAYS = 180;

const mac = (config: Config, id: string, email: string) =>
  createHmac('sha256', purposeKey(config.keys.current, 'device-cookie'))
    .update(`${id}:${emailHash(email)}`)
    .digest('base64url');

/** The device's id (hashed) when the browser shows a device cookie issued for this e-mail, else null. */
export function trustedDevice(ctx: Context, config: Config, email: string): string | null {
  const [id = '', given = ''] = (getCookie(ctx, config, DEVICE_COOKIE) ?? '').split('.');
  if (!/^[A-Za-z0-9_-]{22}$/.test(id) || !/^[A-Za-z0-9_-]{43}$/.test(given)) return null;
  const ok = timingSafeEqual(Buffer.from(mac(config, id, email)), Buffer.from(given));
  return ok ? createHash('sha256').update(id).digest('hex') : null;
}

/** A fresh device cookie for this e-mail (each success issues a new one, with no failures counted yet). */
export function issueDeviceCookie(ctx: Context, config: Config, email: string): void {
  const id = randomBytes(16).toString('base64url');
  setCookie(ctx, config, DEVICE_COOKIE, `${id}.${mac(config, id, email)}`, {
    ...cookieOptions(config, DEVICE_DAYS * 86_400_000),
    sameSite: 'strict',
  });
}
