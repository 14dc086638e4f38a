import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { formatDateTime } from '../../core/i18n/dates.ts';
import { planFor } from '../../core/plans.ts';
import type { RumQueries } from '../../core/rum/queries.ts';
import { setRetryAfter } from '../../http/errors.ts';
import type { Mailer } from '../../services/mailer.ts';
import type { Logger } from '../../infra/logger.ts';
import {
  MAX_REQUEST_MESSAGE,
  requestablePlans,
  requestPlanChange,
  type PlanRequestOutcome,
} from '../../services/plan-requests.ts';
import { planUsage } from '../../services/plan-usage.ts';
import { chromeFor, html, type PageDeps } from '../chrome.ts';
import { readForm, webUser } from '../session.ts';
import { PLAN_LABELS } from './labels.ts';
import { PLAN_PAGE } from './link.ts';
import { planPage, type PlanPageInput } from './page.ts';

export interface PlanPageDeps extends PageDeps {
  log?: Pick<Logger, 'warn'>;
  /** The live-data queries (ClickHouse), for this month's page views. */
  rum: RumQueries;
  /** Sends the upgrade requests; null when the server has no SMTP server configured. */
  mailer: Mailer | null;
}

type Ctx = RouterContext;
type User = NonNullable<ReturnType<typeof webUser>>;

/** The plan and usage page (/settings/plan) and its upgrade request. */
export function mountPlanPages(router: Router, deps: PlanPageDeps): void {
  router.get(PLAN_PAGE, (ctx: Ctx) => showPlan(deps, ctx));
  router.post(`${PLAN_PAGE}/request`, (ctx: Ctx) => requestUpgrade(deps, ctx));
}

function signedIn(ctx: Ctx): User | undefined {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(PLAN_PAGE)}`);
  return user;
}

const operatorEmail = (deps: PlanPageDeps): string | null => (deps.mailer ? deps.config.mail.operatorEmail : null);

async function render(
  deps: PlanPageDeps,
  ctx: Ctx,
  user: User,
  extra: Pick<PlanPageInput, 'values' | 'errors' | 'notice'> = {},
  status = 200,
): Promise<void> {
  const chrome = chromeFor(deps, ctx, 'settings');
  const plan = planFor(user.plan);
  const usage = await planUsage(
    {
      usage: deps.storage.usage,
      scans: deps.storage.scans,
      targets: deps.storage.targets,
      rumSites: deps.storage.rumSites,
      rum: deps.rum,
    },
    { id: user.id, plan },
    deps.clock(),
  );
  html(
    ctx,
    planPage({
      chrome,
      csrf: chrome.csrf!,
      plan,
      usage,
      requestable: operatorEmail(deps) ? requestablePlans(plan) : [],
      maxMessage: MAX_REQUEST_MESSAGE,
      ...extra,
    }),
    status,
  );
}

async function showPlan(deps: PlanPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (user) await render(deps, ctx, user);
}

async function requestUpgrade(deps: PlanPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  const locale = chromeFor(deps, ctx).locale;
  const text = PLAN_LABELS[locale];
  const values = { plan: form.get('plan') ?? '', message: form.get('message') ?? '' };
  const to = operatorEmail(deps);
  const now = deps.clock();
  const outcome: PlanRequestOutcome = to
    ? await requestPlanChange(
        {
          planRequests: deps.storage.planRequests,
          mailer: deps.mailer!,
          operatorEmail: to,
          baseUrl: deps.config.baseUrl,
          log: deps.log,
        },
        { id: user.id, email: user.email, plan: planFor(user.plan) },
        values,
        now,
      )
    : { kind: 'not_sent' };
  switch (outcome.kind) {
    case 'sent':
      return render(deps, ctx, user, { notice: { kind: 'status', text: text.sent(planFor(values.plan).label) } });
    case 'invalid':
      return render(
        deps,
        ctx,
        user,
        {
          values,
          errors:
            outcome.field === 'plan'
              ? { plan: text.invalidPlan }
              : { message: text.messageTooLong(MAX_REQUEST_MESSAGE) },
        },
        422,
      );
    case 'throttled':
      setRetryAfter(ctx, { until: outcome.until, now });
      return render(
        deps,
        ctx,
        user,
        { values, notice: { kind: 'error', text: text.throttled(formatDateTime(outcome.until, locale)) } },
        429,
      );
    case 'not_sent':
      setRetryAfter(ctx, 300);
      return render(deps, ctx, user, { values, notice: { kind: 'error', text: text.notSent } }, 503);
  }
}
