import type { Context, Next } from 'koa';
import { isoTimestamp, type Clock } from '../core/clock.ts';
import { hasFeature, isUnlimited, planFor, type Plan } from '../core/plans.ts';
import type { User } from '../core/user.ts';
import type { TokenStore } from '../db/store/tokens.ts';
import type { UsageStore } from '../db/store/usage.ts';
import { verifyPersonalToken } from '../services/tokens.ts';
import { countApiCall, type DailyUsage } from '../services/usage.ts';
import { planRequired, tooManyRequests, unauthenticated, type HttpError } from '../http/errors.ts';

export interface Principal {
  userId: number;
  /** Which kind of bearer token authenticated the request. */
  kind: 'personal' | 'oauth';
  tokenId: number | string;
}

/**
 * The seam for token kinds: each verifier recognises its own tokens and returns null for anything else. It
 * returns the user too, so that a verifier can read token and user in one query.
 */
export type TokenVerifier = (token: string, now: Date) => Promise<{ principal: Principal; user: User } | null>;

export function personalTokenVerifier(tokens: TokenStore): TokenVerifier {
  return async (token, now) => {
    const owner = await verifyPersonalToken(tokens, token, now);
    return owner && { principal: { userId: owner.user.id, kind: 'personal', tokenId: owner.tokenId }, user: owner.user };
  };
}

export interface ApiState {
  principal: Principal;
  user: User;
  plan: Plan;
  usage: DailyUsage;
  requestId: string;
}

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

/**
 * Every /api/v1 call: a valid bearer token (401), a plan with API access (403), then one unit of the daily
 * limit (429). Rate-limit headers follow GitHub's X-RateLimit-* convention; unlimited plans get none.
 */
export function authenticateApi(deps: { usage: UsageStore; clock: Clock; verifiers: TokenVerifier[] }) {
  return async (ctx: Context, next: Next) => {
    const match = BEARER.exec(ctx.get('authorization'));
    if (!match) throw withChallenge(unauthenticated());
    const now = deps.clock();
    let verified: Awaited<ReturnType<TokenVerifier>> = null;
    for (const verify of deps.verifiers) {
      verified = await verify(match[1]!, now);
      if (verified) break;
    }
    if (!verified) throw withChallenge(unauthenticated(), 'invalid_token');
    const { principal, user } = verified;

    const plan = planFor(user.plan);
    if (!hasFeature(plan, 'api')) {
      throw planRequired('api', (needed) => `Your plan (${plan.label}) does not include API access. Upgrade to ${needed.label} or higher.`);
    }

    const usage = await countApiCall(deps.usage, user.id, plan, now);
    const headers = rateLimitHeaders(usage);
    ctx.set(headers);
    if (!usage.allowed) {
      throw tooManyRequests({ error: 'Daily API request limit exceeded.', limit: usage.limit, reset_at: isoTimestamp(usage.resetAt) }, usage.resetAt, now, headers);
    }
    Object.assign(ctx.state, { principal, user, plan, usage } satisfies Omit<ApiState, 'requestId'>);
    await next();
  };
}

export function rateLimitHeaders(usage: DailyUsage): Record<string, string> {
  if (isUnlimited(usage.limit)) return {};
  return {
    'X-RateLimit-Limit': String(usage.limit),
    'X-RateLimit-Remaining': String(Math.max(0, usage.limit - usage.used)),
    'X-RateLimit-Used': String(usage.used),
    'X-RateLimit-Reset': String(Math.floor(usage.resetAt.getTime() / 1000)),
    'X-RateLimit-Resource': 'api-daily',
  };
}

function withChallenge(error: HttpError, code?: string): HttpError {
  error.headers['WWW-Authenticate'] = code ? `Bearer realm="api", error="${code}"` : 'Bearer realm="api"';
  return error;
}
