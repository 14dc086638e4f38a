import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { planFor } from '../../core/plans.ts';
import type { WebhookSettingsErrors } from '../../core/webhooks/endpoint.ts';
import { notFound } from '../../http/errors.ts';
import { WEBHOOK_ACTION_LIMITS } from '../../core/webhooks/limits.ts';
import { replayFailedSince, resendDelivery, sendTestEvent, type Throttled } from '../../services/webhook-actions.ts';
import {
  mayUseWebhooks,
  rotateSigningSecret,
  saveWebhookSettings,
  webhookSettings,
  type WebhookSettingsDeps,
} from '../../services/webhook-settings.ts';
import { chromeFor, html } from '../chrome.ts';
import { signedIn, verifiedProUser, webhookActionDeps, type NotificationPageDeps } from './access.ts';
import { accountMailText } from '../account/mail-labels.ts';
import { readForm, webEmailVerified } from '../session.ts';
import { WEBHOOK_LABELS, type WebhookNotice } from './labels.ts';
import { deliveryPage, webhookPage } from './page.ts';

export type WebhookPageDeps = NotificationPageDeps;

type Ctx = RouterContext;
const HISTORY_LENGTH = 50;
const PAGE = '/account/notifications';

/** What an action's redirect tells the page to say: a fixed notice, or a test or replay result with its numbers. */
type Outcome =
  | { notice: WebhookNotice }
  | { notice: 'test_result'; delivery: number }
  | { notice: 'replaying'; count: number; more?: number };

/** The notification settings (webhooks) in the web area; the API has no operation for them (spec: Events). */
export function mountWebhookPages(router: Router, deps: WebhookPageDeps): void {
  const on = (handler: (deps: WebhookPageDeps, ctx: Ctx) => Promise<void>) => (ctx: Ctx) => handler(deps, ctx);
  router.get(PAGE, on(showSettings));
  router.post(PAGE, on(saveSettings));
  router.post(`${PAGE}/rotate`, on(rotateSecret));
  router.post(`${PAGE}/enable`, on(enableEndpoint));
  router.post(`${PAGE}/test`, on(sendTest));
  router.post(`${PAGE}/deliveries/:id/resend`, on(resend));
  router.post(`${PAGE}/replay`, on(replay));
  router.get(`${PAGE}/deliveries/:id`, on(showDelivery));
}

const settingsDeps = (deps: WebhookPageDeps): WebhookSettingsDeps => ({
  webhooks: deps.storage.webhooks,
  keys: deps.config.keys,
  allowLoopback: deps.config.callbacksAllowLoopback,
  clock: deps.clock,
});

const proUser = (deps: WebhookPageDeps, ctx: Ctx) =>
  verifiedProUser(deps, ctx, PAGE, (user, notice) => render(deps, ctx, user, notice ? { notice } : {}, 403));

function back(ctx: Ctx, outcome: Outcome): void {
  ctx.status = 303;
  const query = new URLSearchParams(
    Object.entries(outcome).flatMap(([key, value]): Array<[string, string]> =>
      value === null ? [] : [[key, String(value)]],
    ),
  );
  ctx.redirect(`${PAGE}?${query}`);
}

async function render(
  deps: WebhookPageDeps,
  ctx: Ctx,
  user: { id: number; plan: string },
  extra: {
    values?: { url: string; headerName: string; events: string[] };
    errors?: WebhookSettingsErrors;
    notice?: string;
  },
  status = 200,
): Promise<void> {
  const chrome = chromeFor(deps, ctx, 'settings');
  const allowed = mayUseWebhooks(user.plan as never);
  html(
    ctx,
    webhookPage({
      chrome,
      csrf: chrome.csrf!,
      planLabel: planFor(user.plan).label,
      settings: allowed ? await webhookSettings(settingsDeps(deps), user.id) : null,
      deliveries: allowed ? await deps.storage.webhooks.listDeliveries(user.id, HISTORY_LENGTH) : [],
      notice: extra.notice ?? (await noticeOf(deps, user.id, ctx.query, WEBHOOK_LABELS[chrome.locale])),
      ...extra,
    }),
    status,
  );
}

async function showSettings(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx, PAGE);
  if (!user) return;
  const unverified = mayUseWebhooks(user.plan) && !webEmailVerified(ctx);
  await render(deps, ctx, user, unverified ? { notice: accountMailText(chromeFor(deps, ctx).locale).verifyFirst } : {});
}

async function saveSettings(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  const values = {
    url: form.get('url') ?? '',
    headerName: form.get('header_name') ?? '',
    events: form.getAll('events'),
  };
  const outcome = await saveWebhookSettings(settingsDeps(deps), user, {
    ...values,
    headerValue: form.get('header_value') ?? '',
  });
  if (outcome.status === 'saved') return back(ctx, { notice: 'saved' });
  if (outcome.status === 'plan_required') return render(deps, ctx, user, {}, 403);
  await render(deps, ctx, user, { values, errors: outcome.errors }, 422);
}

async function rotateSecret(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  await rotateSigningSecret(settingsDeps(deps), user.id);
  back(ctx, { notice: 'rotated' });
}

async function enableEndpoint(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  await deps.storage.webhooks.enable(user.id, deps.clock());
  back(ctx, { notice: 'enabled' });
}

async function sendTest(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  const outcome = await sendTestEvent(webhookActionDeps(deps), user.id);
  if (outcome.status === 'throttled') return refuse(deps, ctx, user, outcome);
  if (outcome.status === 'not_configured') return back(ctx, { notice: 'not_configured' });
  // The page reads the result from the delivery's record: nothing the receiver or the link says is shown as is.
  back(ctx, { notice: 'test_result', delivery: outcome.delivery.id });
}

async function resend(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  const outcome = await resendDelivery(webhookActionDeps(deps), user.id, idParam(ctx));
  if (outcome.status === 'not_found') throw notFound();
  if (outcome.status === 'throttled') return refuse(deps, ctx, user, outcome);
  back(ctx, { notice: 'resent' });
}

async function replay(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  const since = parseSince(form.get('since') ?? '');
  if (!since)
    return render(deps, ctx, user, { notice: WEBHOOK_LABELS[chromeFor(deps, ctx, 'settings').locale].enterSince }, 422);
  const outcome = await replayFailedSince(webhookActionDeps(deps), user.id, since);
  if (outcome.status === 'throttled') return refuse(deps, ctx, user, outcome);
  back(ctx, { notice: 'replaying', count: outcome.count, ...(outcome.more ? { more: 1 } : {}) });
}

/** Over an action's limit (core/webhooks/limits.ts): the page again, saying so and when it opens (nothing was queued). */
async function refuse(
  deps: WebhookPageDeps,
  ctx: Ctx,
  user: { id: number; plan: string },
  throttled: Throttled,
): Promise<void> {
  const { max, windowMs } = WEBHOOK_ACTION_LIMITS[throttled.action];
  const until = `${throttled.until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  ctx.set('Retry-After', String(Math.max(1, Math.ceil((throttled.until.getTime() - deps.clock().getTime()) / 1000))));
  await render(
    deps,
    ctx,
    user,
    {
      notice: WEBHOOK_LABELS[chromeFor(deps, ctx, 'settings').locale].throttled(
        throttled.action,
        max,
        windowMs / 60_000,
        until,
      ),
    },
    429,
  );
}

async function showDelivery(deps: WebhookPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx, PAGE);
  if (!user) return;
  const delivery = await deps.storage.webhooks.findOwnedDelivery(user.id, idParam(ctx));
  if (!delivery) throw notFound();
  html(
    ctx,
    deliveryPage({
      chrome: chromeFor(deps, ctx, 'settings'),
      delivery,
      attempts: await deps.storage.webhooks.attemptsOf(delivery.id),
    }),
  );
}

const idParam = (ctx: Ctx): number => {
  const id = /^[1-9]\d{0,14}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound();
  return id;
};

/** A datetime-local value (no zone), read as UTC. */
function parseSince(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(`${value}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The notice an action's redirect asked for, in the page's language: only known codes, with numbers only, and
 * a test's result from the user's own delivery record (its status, code and recorded error); anything else in
 * the query says nothing, so a crafted link cannot put words in the service's mouth.
 */
async function noticeOf(
  deps: WebhookPageDeps,
  userId: number,
  query: Ctx['query'],
  text: (typeof WEBHOOK_LABELS)[keyof typeof WEBHOOK_LABELS],
): Promise<string | undefined> {
  const param = (name: string) => (typeof query[name] === 'string' ? query[name] : undefined);
  const whole = (name: string) => (/^\d{1,15}$/.test(param(name) ?? '') ? Number(param(name)) : undefined);
  const notice = param('notice');
  if (notice && Object.hasOwn(text.notices, notice)) return text.notices[notice as WebhookNotice];
  const count = whole('count');
  if (notice === 'replaying' && count !== undefined)
    return param('more') === '1' ? text.replayingSome(count) : text.replaying(count);
  const deliveryId = whole('delivery');
  if (notice !== 'test_result' || deliveryId === undefined) return undefined;
  const delivery = await deps.storage.webhooks.findOwnedDelivery(userId, deliveryId);
  if (!delivery || delivery.event !== 'ping') return undefined;
  if (delivery.status === 'pending') return text.testPending(delivery.id);
  if (delivery.status === 'succeeded') return text.testDelivered(String(delivery.webhookResponseCode));
  return text.testFailed(delivery.webhookLastError);
}
