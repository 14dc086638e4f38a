import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import { planFor } from '../core/plans.ts';
import type { WebhookSettingsErrors } from '../core/webhooks/endpoint.ts';
import type { Storage } from '../db/store/index.ts';
import { notFound } from '../http/errors.ts';
import { replayFailedSince, resendDelivery, sendTestEvent, type WebhookActionDeps } from '../services/webhook-actions.ts';
import { temporalWebhookDispatch } from '../services/webhook-dispatch.ts';
import { mayUseWebhooks, rotateSigningSecret, saveWebhookSettings, webhookSettings, type WebhookSettingsDeps } from '../services/webhook-settings.ts';
import { chromeFor, html } from './chrome.ts';
import { readForm, webUser } from './session.ts';
import { deliveryPage, webhookPage } from './webhook-page.ts';

export interface WebhookPageDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  temporal: Client;
  log?: Pick<Logger, 'warn'>;
}

type Ctx = RouterContext;
const HISTORY_LENGTH = 50;
const PAGE = '/account/notifications';

const NOTICES = {
  saved: 'Settings saved.',
  rotated: 'A new signing secret is in use; the previous one keeps signing for 24 hours.',
  enabled: 'The endpoint is enabled again.',
  resent: 'The delivery is being sent again.',
  not_configured: 'Set a webhook URL first (and re-enable the endpoint if it is disabled).',
} as const;

/** The notification settings (webhooks) in the web area; the API has no operation for them (spec: Events). */
export function mountWebhookPages(router: Router, deps: WebhookPageDeps): void {
  const settingsDeps = (): WebhookSettingsDeps => ({ webhooks: deps.storage.webhooks, keys: deps.config.keys, allowLoopback: deps.config.outboundAllowLoopback, clock: deps.clock });
  const actionDeps = (): WebhookActionDeps => ({
    webhooks: deps.storage.webhooks,
    clock: deps.clock,
    dispatch: temporalWebhookDispatch({ temporal: () => deps.temporal, webhooks: deps.storage.webhooks, taskQueuePrefix: deps.config.temporal.taskQueuePrefix, log: deps.log ?? console }),
  });

  const signedIn = (ctx: Ctx) => {
    const user = webUser(ctx);
    if (!user) ctx.redirect(`/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.url : PAGE)}`);
    return user;
  };
  /** Pro and up; below, the page explains and every change answers 403. */
  const proUser = async (ctx: Ctx) => {
    const user = signedIn(ctx);
    if (user && !mayUseWebhooks(user.plan)) {
      await render(ctx, user, {}, 403);
      return undefined;
    }
    return user;
  };
  const back = (ctx: Ctx, notice: string) => {
    ctx.status = 303;
    ctx.redirect(`${PAGE}?notice=${encodeURIComponent(notice)}`);
  };

  async function render(ctx: Ctx, user: { id: number; plan: string }, extra: { values?: { url: string; headerName: string; events: string[] }; errors?: WebhookSettingsErrors; notice?: string }, status = 200) {
    const chrome = chromeFor(deps, ctx, 'settings');
    const allowed = mayUseWebhooks(user.plan as never);
    const queryNotice = typeof ctx.query.notice === 'string' ? (NOTICES[ctx.query.notice as keyof typeof NOTICES] ?? (ctx.query.notice.startsWith('Test event') || ctx.query.notice.startsWith('Replaying') ? ctx.query.notice.slice(0, 300) : undefined)) : undefined;
    html(
      ctx,
      webhookPage({
        chrome,
        csrf: chrome.csrf!,
        planLabel: planFor(user.plan).label,
        settings: allowed ? await webhookSettings(settingsDeps(), user.id) : null,
        deliveries: allowed ? await deps.storage.webhooks.listDeliveries(user.id, HISTORY_LENGTH) : [],
        notice: extra.notice ?? queryNotice,
        ...extra,
      }),
      status,
    );
  }

  router.get(PAGE, async (ctx) => {
    const user = signedIn(ctx);
    if (user) await render(ctx, user, {});
  });

  router.post(PAGE, async (ctx) => {
    const form = await readForm(ctx, deps.config);
    const user = await proUser(ctx);
    if (!user) return;
    const values = { url: form.get('url') ?? '', headerName: form.get('header_name') ?? '', events: form.getAll('events') };
    const outcome = await saveWebhookSettings(settingsDeps(), user, { ...values, headerValue: form.get('header_value') ?? '' });
    if (outcome.status === 'saved') return back(ctx, 'saved');
    if (outcome.status === 'plan_required') return render(ctx, user, {}, 403);
    await render(ctx, user, { values, errors: outcome.errors }, 422);
  });

  router.post(`${PAGE}/rotate`, async (ctx) => {
    await readForm(ctx, deps.config);
    const user = await proUser(ctx);
    if (!user) return;
    await rotateSigningSecret(settingsDeps(), user.id);
    back(ctx, 'rotated');
  });

  router.post(`${PAGE}/enable`, async (ctx) => {
    await readForm(ctx, deps.config);
    const user = await proUser(ctx);
    if (!user) return;
    await deps.storage.webhooks.enable(user.id, deps.clock());
    back(ctx, 'enabled');
  });

  router.post(`${PAGE}/test`, async (ctx) => {
    await readForm(ctx, deps.config);
    const user = await proUser(ctx);
    if (!user) return;
    const outcome = await sendTestEvent(actionDeps(), user.id);
    if (outcome.status === 'not_configured') return back(ctx, 'not_configured');
    const { delivery } = outcome;
    if (outcome.status === 'pending') return back(ctx, `Test event sent; no result yet (delivery ${delivery.id}).`);
    back(ctx, delivery.status === 'succeeded' ? `Test event delivered: HTTP ${delivery.webhookResponseCode}.` : `Test event failed: ${delivery.webhookLastError ?? 'unknown error'}.`);
  });

  router.post(`${PAGE}/deliveries/:id/resend`, async (ctx) => {
    await readForm(ctx, deps.config);
    const user = await proUser(ctx);
    if (!user) return;
    if (!(await resendDelivery(actionDeps(), user.id, idParam(ctx)))) throw notFound();
    back(ctx, 'resent');
  });

  router.post(`${PAGE}/replay`, async (ctx) => {
    const form = await readForm(ctx, deps.config);
    const user = await proUser(ctx);
    if (!user) return;
    const since = parseSince(form.get('since') ?? '');
    if (!since) return render(ctx, user, { notice: 'Enter the time to replay from (UTC).' }, 422);
    const count = await replayFailedSince(actionDeps(), user.id, since);
    back(ctx, `Replaying ${count} failed deliver${count === 1 ? 'y' : 'ies'}.`);
  });

  router.get(`${PAGE}/deliveries/:id`, async (ctx) => {
    const user = signedIn(ctx);
    if (!user) return;
    const delivery = await deps.storage.webhooks.findOwnedDelivery(user.id, idParam(ctx));
    if (!delivery) throw notFound();
    html(ctx, deliveryPage({ chrome: chromeFor(deps, ctx, 'settings'), delivery, attempts: await deps.storage.webhooks.attemptsOf(delivery.id) }));
  });
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
