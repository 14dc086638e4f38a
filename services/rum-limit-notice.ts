import type { Logger } from '../infra/logger.ts';
import { planFor } from '../core/plans.ts';
import { composeLimitEmail } from '../core/rum/limit-email.ts';
import type { IngestSite, RumSiteStore } from '../db/store/rum-sites.ts';
import { PermanentMailError, type Mailer } from './mailer.ts';

export interface LimitNoticeDeps {
  rumSites: Pick<RumSiteStore, 'recordLimitReached' | 'claimLimitEmail' | 'finishLimitEmail'>;
  mailer: Mailer;
  baseUrl: string;
  log: Logger;
  now?: () => Date;
}

/** How long one instance holds the month's e-mail while sending it (longer than the mailer's own timeouts). */
const EMAIL_LEASE_MS = 2 * 60_000;

/**
 * A site reached its monthly page-view limit: record it (the site page shows it from then on) and e-mail the
 * owner, once per site and month across every ingest instance (the Postgres row's lease and `emailed_at`).
 * True when the notice is done, by this call or another; false when it should be tried again later.
 */
export async function noticeLimitReached(
  deps: LimitNoticeDeps,
  site: IngestSite,
  month: string,
  reachedAt: Date,
): Promise<boolean> {
  const now = deps.now?.() ?? new Date();
  await deps.rumSites.recordLimitReached(site.id, month, reachedAt);
  const recipient = await deps.rumSites.claimLimitEmail(site.id, month, now, new Date(now.getTime() + EMAIL_LEASE_MS));
  if (!recipient) return true;
  const mail = composeLimitEmail(
    { siteId: site.id, domain: recipient.domain, limit: planFor(site.ownerPlan).rumMonthlyPageviews, month },
    recipient,
    deps.baseUrl,
  );
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    if (error instanceof PermanentMailError) {
      // The relay will refuse this address again: count it as done rather than retry all month.
      deps.log.warn(
        { siteId: site.id, month, code: error.responseCode },
        'monthly-limit e-mail refused by the mail server',
      );
      await deps.rumSites.finishLimitEmail(site.id, month, now);
      return true;
    }
    deps.log.warn({ err: error, siteId: site.id, month }, 'monthly-limit e-mail failed; tried again later');
    await deps.rumSites.finishLimitEmail(site.id, month, null);
    return false;
  }
  await deps.rumSites.finishLimitEmail(site.id, month, now);
  deps.log.info({ siteId: site.id, month }, 'monthly-limit e-mail sent');
  return true;
}
