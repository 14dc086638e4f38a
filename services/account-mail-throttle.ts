import type { AccountLinkStore } from '../db/store/account-links.ts';
import { emailHash } from './sign-in-throttle.ts';
import { countInWindow, type WindowCounter } from './sliding-window.ts';

/**
 * Account mail (reset links, verification links sent again, e-mail changes) is counted against the address it
 * is about and against the client asking: at most PER_EMAIL per address and PER_CLIENT per client within
 * WINDOW_MS, so nobody can flood a mailbox or use the form to send mail in bulk. Counted whether or not an
 * account has the address, so the answer tells nothing.
 */
export const ACCOUNT_MAIL_THROTTLE = { windowMs: 60 * 60_000, perEmail: 3, perClient: 10 } as const;

export type AccountMailSlot = { kind: 'counted' } | { kind: 'throttled'; until: Date };

const counter = (links: AccountLinkStore, key: string): WindowCounter => ({
  record: (at) => links.recordRequest(key, at),
  remove: (id) => links.deleteRequest(id),
  timesSince: (since, limit) => links.requestTimes(key, since, limit),
  trimBefore: (before) => links.deleteRequestsBefore(before),
});

export async function reserveAccountMail(
  links: AccountLinkStore,
  who: { email: string; client: string },
  now: Date,
): Promise<AccountMailSlot> {
  const { windowMs } = ACCOUNT_MAIL_THROTTLE;
  const byClient = counter(links, `client:${who.client}`);
  const client = await countInWindow(byClient, { max: ACCOUNT_MAIL_THROTTLE.perClient, windowMs }, now);
  if (client.kind === 'throttled') return client;
  const email = await countInWindow(
    counter(links, `email:${emailHash(who.email)}`),
    { max: ACCOUNT_MAIL_THROTTLE.perEmail, windowMs },
    now,
  );
  if (email.kind === 'throttled') {
    await byClient.remove(client.id);
    return email;
  }
  return { kind: 'counted' };
}
