import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { ALERT_DESTINATIONS_PATH } from '../../core/alert-destinations/notice.ts';
import { planFor } from '../../core/plans.ts';
import { WEBHOOK_ACTION_LIMITS } from '../../core/webhooks/limits.ts';
import { notFound } from '../../http/errors.ts';
import { addAlertDestination, sendTestMessage, type AlertDestinationDeps } from '../../services/alert-destinations.ts';
import { mayUseWebhooks } from '../../services/webhook-settings.ts';
import { accountMailText } from '../account/mail-labels.ts';
import { chromeFor, html } from '../chrome.ts';
import { signedIn, verifiedProUser, webhookActionDeps, type NotificationPageDeps } from '../webhooks/access.ts';
import { readForm, webEmailVerified } from '../session.ts';
import { DESTINATION_LABELS, type DestinationNotice } from './labels.ts';
import { destinationsPage, type DestinationFormErrors } from './page.ts';

export type DestinationPageDeps = NotificationPageDeps;

type Ctx = RouterContext;
const PAGE = ALERT_DESTINATIONS_PATH;
/** Targets offered in the form's scope list (an account's targets fit: plans allow far fewer). */
const TARGETS_LISTED = 200;

/** Slack and Teams alert destinations in the web area (Pro and up, like webhooks; the API has no operation for them). */
export function mountAlertDestinationPages(router: Router, deps: DestinationPageDeps): void {
  const on = (handler: (deps: DestinationPageDeps, ctx: Ctx) => Promise<void>) => (ctx: Ctx) => handler(deps, ctx);
  router.get(PAGE, on(show));
  router.post(PAGE, on(add));
  router.post(`${PAGE}/:id/remove`, on(remove));
  router.post(`${PAGE}/:id/enable`, on(enable));
  router.post(`${PAGE}/:id/test`, on(test));
}

const serviceDeps = (deps: DestinationPageDeps): AlertDestinationDeps => ({
  webhooks: deps.storage.webhooks,
  keys: deps.config.keys,
  allowLoopback: deps.config.callbacksAllowLoopback,
  clock: deps.clock,
  ownsTarget: async (userId, targetId) => (await deps.storage.targets.findOwned(userId, targetId)) !== undefined,
});

const proUser = (deps: DestinationPageDeps, ctx: Ctx) =>
  verifiedProUser(deps, ctx, PAGE, (user, notice) => render(deps, ctx, user, notice ? { notice } : {}, 403));

async function render(
  deps: DestinationPageDeps,
  ctx: Ctx,
  user: { id: number; plan: string },
  extra: { values?: { kind: string; target: string }; errors?: DestinationFormErrors; notice?: string },
  status = 200,
): Promise<void> {
  const chrome = chromeFor(deps, ctx, 'settings');
  const allowed = mayUseWebhooks(user.plan as never);
  const targets = allowed
    ? (await deps.storage.targets.listOwned(user.id, { limit: TARGETS_LISTED, page: 1 })).items.map((t) => ({
        id: t.id,
        url: t.url,
      }))
    : [];
  html(
    ctx,
    destinationsPage({
      chrome,
      csrf: chrome.csrf!,
      planLabel: planFor(user.plan).label,
      destinations: allowed ? await deps.storage.webhooks.listDestinations(user.id) : null,
      targets,
      notice: extra.notice ?? (await noticeOf(deps, user.id, ctx.query, chrome.locale)),
      ...extra,
    }),
    status,
  );
}

function back(ctx: Ctx, query: Record<string, string | number>): void {
  ctx.status = 303;
  ctx.redirect(
    `${PAGE}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
  );
}

async function show(deps: DestinationPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx, PAGE);
  if (!user) return;
  const unverified = mayUseWebhooks(user.plan) && !webEmailVerified(ctx);
  await render(deps, ctx, user, unverified ? { notice: accountMailText(chromeFor(deps, ctx).locale).verifyFirst } : {});
}

async function add(deps: DestinationPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  const values = { kind: form.get('kind') ?? '', target: form.get('target') ?? '' };
  const outcome = await addAlertDestination(serviceDeps(deps), user, { ...values, url: form.get('url') ?? '' });
  if (outcome.status === 'added') return back(ctx, { notice: 'added' });
  if (outcome.status === 'plan_required') return render(deps, ctx, user, {}, 403);
  // The URL is not echoed back into the form (it is a credential).
  await render(deps, ctx, user, { values, errors: outcome.errors }, 422);
}

async function remove(deps: DestinationPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  if (!(await deps.storage.webhooks.removeDestination(user.id, idParam(ctx)))) throw notFound();
  back(ctx, { notice: 'removed' });
}

async function enable(deps: DestinationPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  if (!(await deps.storage.webhooks.enableDestination(user.id, idParam(ctx), deps.clock()))) throw notFound();
  back(ctx, { notice: 'enabled' });
}

async function test(deps: DestinationPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = await proUser(deps, ctx);
  if (!user) return;
  const chrome = chromeFor(deps, ctx, 'settings');
  const outcome = await sendTestMessage(webhookActionDeps(deps), user.id, idParam(ctx), chrome.locale);
  if (outcome.status === 'not_found') throw notFound();
  if (outcome.status === 'throttled') {
    const { max, windowMs } = WEBHOOK_ACTION_LIMITS.test;
    const until = `${outcome.until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    ctx.set('Retry-After', String(Math.max(1, Math.ceil((outcome.until.getTime() - deps.clock().getTime()) / 1000))));
    return render(
      deps,
      ctx,
      user,
      { notice: DESTINATION_LABELS[chrome.locale].throttled(max, windowMs / 60_000, until) },
      429,
    );
  }
  // The page reads the result from the delivery's record: nothing a receiver or a link says is shown as is.
  back(ctx, { notice: 'test_result', delivery: outcome.delivery.id });
}

const idParam = (ctx: Ctx): number => {
  const id = /^[1-9]\d{0,14}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound();
  return id;
};

/** Only known notice codes, and a test's result from the user's own delivery record (a ping to a destination). */
async function noticeOf(
  deps: DestinationPageDeps,
  userId: number,
  query: Ctx['query'],
  locale: keyof typeof DESTINATION_LABELS,
): Promise<string | undefined> {
  const text = DESTINATION_LABELS[locale];
  const param = (name: string) => (typeof query[name] === 'string' ? query[name] : undefined);
  const notice = param('notice');
  if (notice && Object.hasOwn(text.notices, notice)) return text.notices[notice as DestinationNotice];
  const id = /^\d{1,15}$/.test(param('delivery') ?? '') ? Number(param('delivery')) : undefined;
  if (notice !== 'test_result' || id === undefined) return undefined;
  const delivery = await deps.storage.webhooks.findOwnedDelivery(userId, id);
  if (!delivery || delivery.event !== 'ping' || !delivery.destinationId) return undefined;
  if (delivery.status === 'pending') return text.testPending(delivery.id);
  if (delivery.status === 'succeeded') return text.testDelivered(String(delivery.webhookResponseCode));
  return text.testFailed(delivery.webhookLastError);
}
