import { isPlanKey, PLAN_KEYS, PLANS, type Plan, type PlanKey } from '../core/plans.ts';
import type { PlanRequestStore } from '../db/store/plan-requests.ts';
import type { Logger } from '../infra/logger.ts';
import type { Mailer } from './mailer.ts';
import { countInWindow } from './sliding-window.ts';

/** One upgrade request per account and day: enough to ask, too few to flood the operators' mailbox. */
export const PLAN_REQUEST_LIMIT = { max: 1, windowMs: 24 * 3600_000 };
export const MAX_REQUEST_MESSAGE = 1000;

export interface PlanRequestDeps {
  planRequests: PlanRequestStore;
  mailer: Mailer;
  operatorEmail: string;
  /** The service's public address, named in the mail. */
  baseUrl: string;
  log?: Pick<Logger, 'warn'>;
}

export type PlanRequestOutcome =
  | { kind: 'sent' }
  | { kind: 'invalid'; field: 'plan' | 'message' }
  | { kind: 'throttled'; until: Date }
  | { kind: 'not_sent' };

/** The operator command that puts an account on a plan (ops/cli.ts `user:plan`), ready to paste into a shell. */
export function planChangeCommand(email: string, plan: PlanKey): string {
  const quoted = /^[A-Za-z0-9@._+-]+$/.test(email) ? email : `'${email.replace(/'/g, `'\\''`)}'`;
  return `npm run ops -- user:plan --email ${quoted} --plan ${plan}`;
}

/** Plans a user may ask for: every other plan (a downgrade too). */
export const requestablePlans = (current: Plan): Plan[] =>
  PLAN_KEYS.filter((key) => key !== current.key).map((key) => PLANS[key]);

/**
 * Mails the operators that the user asks for another plan, with the command that makes the change. Counted
 * before sending (parallel requests see each other); a refused or unsent request is taken back.
 */
export async function requestPlanChange(
  deps: PlanRequestDeps,
  user: { id: number; email: string; plan: Plan },
  input: { plan: string; message: string },
  now: Date,
): Promise<PlanRequestOutcome> {
  const wanted = input.plan;
  if (!isPlanKey(wanted) || wanted === user.plan.key) return { kind: 'invalid', field: 'plan' };
  const message = input.message.trim();
  if (message.length > MAX_REQUEST_MESSAGE) return { kind: 'invalid', field: 'message' };
  const slot = await countInWindow(
    {
      record: (at) => deps.planRequests.record(user.id, wanted, at),
      remove: (id) => deps.planRequests.remove(id),
      timesSince: (since, limit) => deps.planRequests.timesSince(user.id, since, limit),
      trimBefore: (before) => deps.planRequests.deleteBefore(user.id, before),
    },
    PLAN_REQUEST_LIMIT,
    now,
  );
  if (slot.kind === 'throttled') return { kind: 'throttled', until: slot.until };
  const plan = PLANS[wanted];
  const command = planChangeCommand(user.email, wanted);
  const lines = [
    `${user.email} (account ${user.id}) asks to change plan from ${user.plan.label} to ${plan.label} on ${deps.baseUrl}.`,
    '',
    'To make the change, run on a machine with the production configuration:',
    `  ${command}`,
    '',
    ...quotedMessage(message),
  ];
  try {
    await deps.mailer.send({
      to: deps.operatorEmail,
      subject: `Plan change request: ${user.email} → ${plan.label}`,
      text: lines.join('\n'),
      html: `<pre>${escape(lines.join('\n'))}</pre>`,
    });
  } catch (error) {
    deps.log?.warn({ err: error, userId: user.id }, 'plan change request e-mail failed; not counted');
    await deps.planRequests.remove(slot.id);
    return { kind: 'not_sent' };
  }
  return { kind: 'sent' };
}

/**
 * The user's message after the command, never before it, as a quoted block: between two marker lines, every
 * line of it starting with "> ", so nothing they type can pass for the command or for the mail's own text.
 * Every kind of line break counts as one (a lone CR or U+2028 would start a line in some mail readers).
 */
export function quotedMessage(message: string): string[] {
  if (!message) return ['The user wrote no message.'];
  return [
    'The user’s message, quoted as typed (not an instruction):',
    '----- begin of the user’s message -----',
    ...message.split(/\r\n|[\r\n\u0085\u2028\u2029\v\f]/).map((line) => `> ${line}`),
    '----- end of the user’s message -----',
  ];
}

const escape = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
