import type { RouterContext } from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Storage } from '../db/store/index.ts';
import type { Config } from '../infra/config.ts';
import { setPageHeaders } from './error-page.ts';
import type { Chrome, NavKey } from './layout.ts';
import { pageLocale } from './locale.ts';
import { verifyBanner } from './account/mail-pages.ts';
import { csrfToken, webEmailVerified, webUser } from './session.ts';
import { t, type WebText } from './text.ts';

type Ctx = RouterContext;

/** What every feature's pages are built from: the stores, the configuration and the clock. */
export interface PageDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
}

/** Pages that also start or change workflows (scans, target schedules, webhook deliveries). */
export interface WorkflowPageDeps extends PageDeps {
  temporal: Client;
}

/** Answers with a page of the web area, with the headers every page gets. */
export function html(ctx: Ctx, body: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'html';
  setPageHeaders(ctx);
  ctx.body = body;
}

/** The frame's data for this request: language, the signed-in user, the CSRF token for sign-out, where we are. */
export function chromeFor(deps: { config: Config }, ctx: Ctx, current?: NavKey): Chrome {
  const user = webUser(ctx);
  const locale = pageLocale(ctx, deps.config);
  const csrf = user ? csrfToken(ctx, deps.config) : undefined;
  return {
    locale,
    user: user ? { email: user.email, unreadAlerts: ctx.state.unreadAlerts as number | undefined } : undefined,
    csrf,
    current,
    path: ctx.url,
    ...(user && !webEmailVerified(ctx) ? { banner: verifyBanner({ locale, path: ctx.url }, user.email, csrf!) } : {}),
  };
}

/** The web area's words in this request's language. */
export const pageText = (deps: { config: Config }, ctx: Ctx): WebText => t(pageLocale(ctx, deps.config));
