import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { RumQueries } from '../../core/rum/queries.ts';
import type { Logger } from '../../infra/logger.ts';
import { DEPENDENCY_RETRY_AFTER_S, notFound, setRetryAfter } from '../../http/errors.ts';
import { deleteAccount } from '../../services/account-deletion.ts';
import { prepareAccountExport } from '../../services/account-export.ts';
import { chromeFor, type WorkflowPageDeps } from '../chrome.ts';
import { sendPage, setPageHeaders } from '../error-page.ts';
import { csrfToken, endSession, readForm, webUser } from '../session.ts';
import { trustedDevice } from './device-cookie.ts';
import { dataText } from './data-labels.ts';
import { dataPage, deletedPage, type DataFormErrors } from './data-page.ts';

export interface DataPageDeps extends WorkflowPageDeps {
  /** The live-data queries, for the export's live-data figures. */
  rum: RumQueries;
  log?: Pick<Logger, 'warn'>;
}

type Ctx = RouterContext;
const PAGE = '/settings/data';

/** "Your data": the download of everything the account holds, and the deletion of the account. */
export function mountDataPages(router: Router, deps: DataPageDeps): void {
  const on = (handler: (deps: DataPageDeps, ctx: Ctx) => Promise<void> | void) => (ctx: Ctx) => handler(deps, ctx);
  router.get(PAGE, on(showPage));
  router.get(`${PAGE}/export`, on(exportData));
  router.post(`${PAGE}/delete`, on(removeAccount));
  router.get(`${PAGE}/deleted`, on(showDeleted));
}

function signedIn(ctx: Ctx) {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(PAGE)}`);
  return user;
}

function render(
  deps: DataPageDeps,
  ctx: Ctx,
  email: string,
  extra: { errors?: DataFormErrors; confirmation?: string; exportError?: string },
  status = 200,
): void {
  const chrome = chromeFor(deps, ctx, 'settings');
  sendPage(ctx, dataPage({ chrome, csrf: csrfToken(ctx, deps.config), email, ...extra }), status);
}

function showPage(deps: DataPageDeps, ctx: Ctx): void {
  const user = signedIn(ctx);
  if (user) render(deps, ctx, user.email, {});
}

/** The archive as a JSON attachment, its scans streamed page by page; ClickHouse away: 503 and no file. */
async function exportData(deps: DataPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const archive = await prepareAccountExport(
    { accountData: deps.storage.accountData, rum: deps.rum, clock: deps.clock },
    user.id,
  );
  if (archive.kind === 'not_found') throw notFound();
  if (archive.kind === 'live_data_unavailable') {
    setRetryAfter(ctx, DEPENDENCY_RETRY_AFTER_S);
    const text = dataText(chromeFor(deps, ctx).locale);
    return render(deps, ctx, user.email, { exportError: text.exportUnavailable }, 503);
  }
  setPageHeaders(ctx);
  ctx.set('Content-Disposition', `attachment; filename="${archive.filename}"`);
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = Readable.from(archive.body);
}

async function removeAccount(deps: DataPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  const confirmation = form.get('confirmation') ?? '';
  const text = dataText(chromeFor(deps, ctx).locale);
  const now = deps.clock();
  const outcome = await deleteAccount(
    {
      accountData: deps.storage.accountData,
      users: deps.storage.users,
      throttles: deps.storage.throttles,
      temporal: deps.temporal,
      taskQueuePrefix: deps.config.temporal.taskQueuePrefix,
      clock: deps.clock,
    },
    user,
    { password: form.get('password') ?? '', confirmation },
    { ip: ctx.ip, device: trustedDevice(ctx, deps.config, user.email) },
  );
  if (outcome.kind === 'throttled') {
    const seconds = setRetryAfter(ctx, { until: outcome.until, now });
    const errors = { password: `${text.throttled} ${text.tryAgainIn(Math.ceil(seconds / 60))}` };
    return render(deps, ctx, user.email, { errors, confirmation }, 429);
  }
  if (outcome.kind === 'invalid') {
    const errors: DataFormErrors = {};
    if (outcome.errors.password) errors.password = text.wrongPassword;
    if (outcome.errors.confirmation) errors.confirmation = text.confirmationMismatch;
    return render(deps, ctx, user.email, { errors, confirmation }, 422);
  }
  if (outcome.workflow === 'not_started')
    deps.log?.warn({ userId: user.id }, 'account closed; its deletion workflow will be started by the reconciler');
  await endSession(ctx, deps);
  ctx.status = 303;
  ctx.redirect(`${PAGE}/deleted`);
}

function showDeleted(deps: DataPageDeps, ctx: Ctx): void {
  sendPage(ctx, deletedPage(chromeFor(deps, ctx)));
}
