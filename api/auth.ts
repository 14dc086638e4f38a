import type { Context, Next } from 'koa';
import { isoTimestamp, type Clock } from '../core/clock.ts';
import { hasFeature, isUnlimited, planFor, type Plan } from '../core/plans.ts';
import type { User } from '../core/user.ts';
import type { TokenStore } from '../db/store/tokens.ts';
import type { UsageStore } from '../db/store/usage.ts';
import { verifyPersonalToken } from '../services/tokens.ts';
import { countApiCall, peekApiUsage, type DailyUsage } from '../services/usage.ts';
import { forbidden, planRequired, tooManyRequests, unauthenticated, type HttpError } from '../http/errors.ts';
import { allows, SCOPES, scopeForMethod, type Scope } from '../core/oauth/scopes.ts';
import type { ResourceKind } from '../core/oauth/resources.ts';
import type { Principal, TokenVerifier, Verified } from '../core/token-verifier.ts';

/** Personal tokens work on every resource: they are the user's own key to everything the API offers. */
export function personalTokenVerifier(tokens: TokenStore): TokenVerifier {
  return async (token, now) => {
    const owner = await verifyPersonalToken(tokens, token, now);
    return (
      owner && {
        principal: { userId: owner.user.id, kind: 'personal', tokenId: owner.tokenId, scopes: SCOPES },
        user: owner.user,
      }
    );
  };
}

export interface ApiState {
  principal: Principal;
  user: User;
  plan: Plan;
  usage: DailyUsage;
  requestId: string;
  /** Ids for the access log line (api/route.ts recordLogIds). */
  logIds?: Record<string, string | number>;
}

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

export interface AuthDeps {
  usage: UsageStore;
  clock: Clock;
  verifiers: TokenVerifier[];
  /** Told of each call refused for the daily limit (the operator metric). */
  onLimitRefused?: (plan: string) => void;
}

export type Admitted = Omit<ApiState, 'requestId'> & { headers: Record<string, string> };

/**
 * One call of the API or of an MCP tool, in this order: a valid bearer token for `resource` (401), a plan
 * with API access (403), a token scope that allows the action (403), then one unit of the daily limit (429).
 * The 401 carries a `WWW-Authenticate` challenge naming `challenge` (the resource's metadata for MCP).
 * Rate-limit headers follow GitHub's X-RateLimit-* convention; unlimited plans get none.
 */
export async function admitCall(
  deps: AuthDeps,
  call: {
    authorization: string;
    resource: ResourceKind;
    needs: Scope;
    challenge?: string;
    /** False: check everything but count nothing (MCP handshakes). */ count?: boolean;
  },
): Promise<Admitted> {
  const match = BEARER.exec(call.authorization);
  if (!match) throw withChallenge(unauthenticated(), call.challenge);
  const now = deps.clock();
  let verified: Verified | null = null;
  for (const verify of deps.verifiers) {
    verified = await verify(match[1]!, now, call.resource);
    if (verified) break;
  }
  if (!verified) throw withChallenge(unauthenticated(), call.challenge, 'invalid_token');
  const { principal, user } = verified;

  const plan = planFor(user.plan);
  if (!hasFeature(plan, 'api')) {
    throw planRequired(
      'api',
      (needed) => `Your plan (${plan.label}) does not include API access. Upgrade to ${needed.label} or higher.`,
    );
  }
  if (!allows(principal.scopes, call.needs)) {
    const error = forbidden(
      `This app was authorised with the scope "${principal.scopes.join(' ')}", which does not allow this action; it needs "${call.needs}". Authorise the app again with that scope.`,
    );
    error.headers['WWW-Authenticate'] = `Bearer error="insufficient_scope", scope="${call.needs}"`;
    throw error;
  }

  // Not counting (MCP's handshakes; its tool calls count themselves), nothing is refused for the limit either.
  const usage =
    call.count === false
      ? await peekApiUsage(deps.usage, user.id, plan, now)
      : await countApiCall(deps.usage, user.id, plan, now);
  const headers = rateLimitHeaders(usage);
  if (!usage.allowed && call.count !== false) {
    deps.onLimitRefused?.(plan.key);
    throw tooManyRequests(
      { error: 'Daily API request limit exceeded.', limit: usage.limit, reset_at: isoTimestamp(usage.resetAt) },
      usage.resetAt,
      now,
      headers,
    );
  }
  return { principal, user, plan, usage, headers };
}

/** The /api/v1 middleware over admitCall: the REST API is the `api` resource; a GET needs `read`, the rest `write`. */
export function authenticateApi(deps: AuthDeps) {
  return async (ctx: Context, next: Next) => {
    const { headers, ...state } = await admitCall(deps, {
      authorization: ctx.get('authorization'),
      resource: 'api',
      needs: scopeForMethod(ctx.method),
    });
    ctx.set(headers);
    Object.assign(ctx.state, state satisfies Omit<ApiState, 'requestId'>);
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

/** RFC 6750's challenge; for a resource with RFC 9728 metadata, `resource_metadata` names it (how MCP clients find the authorization server). */
function withChallenge(error: HttpError, resourceMetadata: string | undefined, code?: string): HttpError {
  const params = [
    resourceMetadata ? `resource_metadata="${resourceMetadata}"` : 'realm="api"',
    ...(code ? [`error="${code}"`] : []),
  ];
  error.headers['WWW-Authenticate'] = `Bearer ${params.join(', ')}`;
  return error;
}
