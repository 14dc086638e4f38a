import { isoTimestamp } from '../../core/clock.ts';
import { planView } from '../../core/plans.ts';
import type { ApiContext, ApiRoute } from '../route.ts';

export const accountSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['id', 'name', 'email', 'plan', 'api_usage'],
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        email: { type: 'string' },
        plan: {
          type: 'object',
          required: ['key', 'label', 'api_enabled', 'api_daily_limit'],
          properties: {
            key: { type: 'string', enum: ['free', 'starter', 'pro', 'agency'] },
            label: { type: 'string' },
            api_enabled: { type: 'boolean' },
            api_daily_limit: { type: 'integer', description: '-1 means unlimited.' },
          },
        },
        api_usage: {
          type: 'object',
          required: ['used_today', 'limit_today', 'reset_at'],
          properties: {
            used_today: { type: 'integer', description: 'Calls counted today (UTC), this one included.' },
            limit_today: { type: 'integer', description: '-1 means unlimited.' },
            reset_at: { type: 'string', format: 'date-time', description: 'Next midnight UTC.' },
          },
        },
      },
    },
  },
};

export const getMe: ApiRoute = {
  method: 'get',
  path: '/me',
  tag: 'Account',
  summary: 'The account behind the token, its plan and today’s API usage.',
  responses: { 200: { description: 'The account.', schema: accountSchema } },
  handle: showAccount,
};

function showAccount(ctx: ApiContext): void {
  const { user, plan, usage } = ctx.state;
  ctx.body = {
    data: {
      id: user.id,
      name: user.name,
      email: user.email,
      plan: planView(plan),
      api_usage: { used_today: usage.used, limit_today: usage.limit, reset_at: isoTimestamp(usage.resetAt) },
    },
  };
}
