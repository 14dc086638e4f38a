import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type Provider from 'oidc-provider';
import { errors as oauthErrors } from 'oidc-provider';
import { resourceKindOf, resourceUrl } from '../../core/oauth/resources.ts';
import { DEFAULT_SCOPES, parseScopes, type Scope } from '../../core/oauth/scopes.ts';
import { hasFeature, planFor } from '../../core/plans.ts';
import type { User } from '../../core/user.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { OAUTH_PATHS } from '../../core/oauth/paths.ts';
import { describeClient } from '../../services/oauth-apps.ts';
import type { Storage } from '../../db/store/index.ts';
import { chromeFor, type PageDeps } from '../chrome.ts';
import { setPageHeaders } from '../error-page.ts';
import { consentPage, consentRefusedPage } from './consent-page.ts';
import { csrfToken, readForm, webUser } from '../session.ts';

/** The consent pages need the authorization server and, of the stores, only where approved apps are recorded. */
export interface OAuthPageDeps extends Omit<PageDeps, 'storage'> {
  provider: Provider;
  storage: Pick<Storage, 'oauth'>;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * The consent step of an authorization: oidc-provider sends the browser to /oauth/consent/<uid>; the person
 * signed in to the web area (sign-in first, then back here) sees the app and approves or denies. Approval
 * makes a grant for the resources and scopes asked for and records the app for the API and apps page.
 */
export function mountOAuthPages(router: Router, deps: OAuthPageDeps): void {
  router.get(`${OAUTH_PATHS.consent}/:uid`, (ctx) => showConsent(deps, ctx));
  router.post(`${OAUTH_PATHS.consent}/:uid`, (ctx) => decide(deps, ctx));
}

const expired = (): HttpError =>
  new HttpError(400, {
    message: 'This authorisation request has expired or was already answered. Start again from the app.',
  });

async function interactionFor(deps: OAuthPageDeps, ctx: RouterContext): Promise<Interaction> {
  let details: Interaction;
  try {
    details = await deps.provider.interactionDetails(ctx.req, ctx.res);
  } catch (error) {
    if (error instanceof oauthErrors.SessionNotFound || error instanceof oauthErrors.InvalidRequest) throw expired();
    throw error;
  }
  if (details.uid !== ctx.params.uid || (details.prompt.name !== 'login' && details.prompt.name !== 'consent'))
    throw expired();
  return details;
}

function signedIn(ctx: RouterContext): User | undefined {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
  return user;
}

/** The resources asked for (RFC 8707 `resource`, one or more), or the REST API when none. */
function resourcesOf(details: Interaction, baseUrl: string): string[] {
  const asked = details.params.resource;
  const list = (Array.isArray(asked) ? asked : typeof asked === 'string' ? [asked] : []).filter(
    (r): r is string => typeof r === 'string' && resourceKindOf(baseUrl, r) !== undefined,
  );
  return list.length ? list : [resourceUrl(baseUrl, 'api')];
}

function scopesOf(details: Interaction): Scope[] {
  const scopes = parseScopes(typeof details.params.scope === 'string' ? details.params.scope : undefined);
  return scopes.length ? scopes : [...DEFAULT_SCOPES];
}

function page(ctx: RouterContext, body: string, formTarget?: string): void {
  ctx.type = 'html';
  setPageHeaders(ctx);
  // The approval's redirects end at the app's redirect URI; browsers apply form-action to that chain too.
  if (formTarget)
    ctx.set(
      'Content-Security-Policy',
      ctx.response.get('Content-Security-Policy').replace("form-action 'self'", `form-action 'self' ${formTarget}`),
    );
  ctx.body = body;
}

async function finish(
  deps: OAuthPageDeps,
  ctx: RouterContext,
  result: Parameters<Provider['interactionResult']>[2],
): Promise<void> {
  const resumeUrl = await deps.provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
  ctx.status = 303;
  ctx.redirect(resumeUrl);
}

const planDenied = (user: User) => ({
  error: 'access_denied',
  error_description: `The user's plan (${planFor(user.plan).label}) does not allow authorising apps; the Starter plan or higher does.`,
});

async function showConsent(deps: OAuthPageDeps, ctx: RouterContext): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const details = await interactionFor(deps, ctx);
  const plan = planFor(user.plan);
  if (!hasFeature(plan, 'oauth_authorize')) {
    const continueUrl = await deps.provider.interactionResult(ctx.req, ctx.res, planDenied(user), {
      mergeWithLastSubmission: false,
    });
    ctx.status = 403;
    return page(
      ctx,
      consentRefusedPage({ chrome: chromeFor(deps, ctx), reason: 'plan', planLabel: plan.label, continueUrl }),
    );
  }
  const client = await deps.provider.Client.find(String(details.params.client_id));
  if (!client) throw notFound();
  const redirectUri = String(details.params.redirect_uri);
  page(
    ctx,
    consentPage({
      chrome: chromeFor(deps, ctx),
      csrf: csrfToken(ctx, deps.config),
      action: `${OAUTH_PATHS.consent}/${details.uid}`,
      app: describeClient(client, redirectUri),
      redirectHost: new URL(redirectUri).host,
      scopes: scopesOf(details),
      user: { name: user.name, email: user.email },
    }),
    new URL(redirectUri).origin,
  );
}

async function decide(deps: OAuthPageDeps, ctx: RouterContext): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const form = await readForm(ctx, deps.config);
  const details = await interactionFor(deps, ctx);
  if (!hasFeature(planFor(user.plan), 'oauth_authorize')) return finish(deps, ctx, planDenied(user));
  if (form.get('decision') !== 'approve')
    return finish(deps, ctx, { error: 'access_denied', error_description: 'The user denied the authorisation.' });

  const clientId = String(details.params.client_id);
  const client = await deps.provider.Client.find(clientId);
  if (!client) throw notFound();
  const scopes = scopesOf(details);
  const grant = new deps.provider.Grant({ accountId: String(user.id), clientId });
  grant.addOIDCScope(scopes.join(' '));
  for (const resource of resourcesOf(details, deps.config.baseUrl)) grant.addResourceScope(resource, scopes.join(' '));
  const grantId = await grant.save();
  const app = describeClient(client, String(details.params.redirect_uri));
  await deps.storage.oauth.recordApp({
    grantId,
    userId: user.id,
    clientId,
    name: app.name,
    clientIdHost: app.clientIdHost,
    verified: app.verified,
    scopes,
    authorisedAt: deps.clock(),
  });
  await finish(deps, ctx, { login: { accountId: String(user.id) }, consent: { grantId } });
}
