import type { RouterContext } from '@koa/router';
import type { Logger } from '../../infra/logger.ts';
import type { WebhookActionDeps } from '../../services/webhook-actions.ts';
import { temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { mayUseWebhooks } from '../../services/webhook-settings.ts';
import { accountMailText } from '../account/mail-labels.ts';
import { chromeFor, type WorkflowPageDeps } from '../chrome.ts';
import { webEmailVerified, webUser } from '../session.ts';

/**
 * What the pages of outgoing notifications (webhooks, Slack and Teams destinations) share: who may use them and
 * how their sends are dispatched. Both deliver through the signed webhook's outbox.
 */
export interface NotificationPageDeps extends WorkflowPageDeps {
  log?: Pick<Logger, 'warn'>;
}

export type SignedInUser = NonNullable<ReturnType<typeof webUser>>;

export const webhookActionDeps = (deps: NotificationPageDeps): WebhookActionDeps => ({
  webhooks: deps.storage.webhooks,
  clock: deps.clock,
  dispatch: temporalWebhookDispatch({
    temporal: () => deps.temporal,
    webhooks: deps.storage.webhooks,
    taskQueuePrefix: deps.config.temporal.taskQueuePrefix,
    log: deps.log ?? console,
  }),
});

/** The signed-in user, or a redirect to the sign-in page that comes back to `page` (or to this GET). */
export function signedIn(ctx: RouterContext, page: string): SignedInUser | undefined {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.url : page)}`);
  return user;
}

/**
 * Pro and up, with a verified e-mail address (services/account-mail.ts); otherwise `forbidden` renders the page
 * with a 403 (and the notice to verify first, when that is what is missing), and the result is undefined.
 */
export async function verifiedProUser(
  deps: NotificationPageDeps,
  ctx: RouterContext,
  page: string,
  forbidden: (user: SignedInUser, notice: string | undefined) => Promise<void>,
): Promise<SignedInUser | undefined> {
  const user = signedIn(ctx, page);
  if (user && !mayUseWebhooks(user.plan)) {
    await forbidden(user, undefined);
    return undefined;
  }
  if (user && !webEmailVerified(ctx)) {
    await forbidden(user, accountMailText(chromeFor(deps, ctx).locale).verifyFirst);
    return undefined;
  }
  return user;
}
