import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { notFound } from '../../http/errors.ts';
import { updateTarget } from '../../services/targets.ts';
import { pageLocale } from '../locale.ts';
import { readForm } from '../session.ts';
import type { FieldErrors } from './model.ts';
import {
  backTo,
  failureMessage,
  failureStatus,
  idParam,
  labelsFor,
  renderTarget,
  serviceDeps,
  signedIn,
  type MonitoringPageDeps,
} from './routes.ts';
import { readBudgetForm } from './target-budgets.ts';

/** POST /targets/:id/budgets: replaces the target's budgets with the form's, then back to its page. */
export function mountTargetBudgets(router: Router, deps: MonitoringPageDeps): void {
  router.post('/targets/:id/budgets', (ctx: RouterContext) => saveBudgets(deps, ctx));
}

async function saveBudgets(deps: MonitoringPageDeps, ctx: RouterContext): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'targetId');
  const form = await readForm(ctx, deps.config);
  const locale = pageLocale(ctx, deps.config);
  const read = readBudgetForm(form, locale);
  const rejected = (errors: FieldErrors, status: number) =>
    renderTarget(deps, ctx, user.id, id, undefined, status, undefined, { values: read.values, errors });
  if (!read.budgets) {
    if (!(await deps.storage.targets.findOwned(user.id, id))) throw notFound();
    return rejected(read.errors, 422);
  }
  const outcome = await updateTarget(serviceDeps(deps), user, id, { budgets: read.budgets });
  if (outcome.kind === 'ok') return backTo(ctx, new URLSearchParams({ next: `/targets/${id}` }), '/targets', 'budgets');
  if (outcome.kind === 'not_found') throw notFound();
  return rejected(
    {
      form:
        failureMessage(outcome, labelsFor(deps, ctx), locale) ??
        (outcome.kind === 'invalid' ? (Object.values(outcome.errors).flat()[0] ?? '') : ''),
    },
    failureStatus(outcome),
  );
}
