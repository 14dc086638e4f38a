import type { AuditSummary, KeptAudit } from '../../scan/observation.ts';
import { FORM_FACTORS } from '../../scan/observation.ts';
import { costScore, KB } from '../cost.ts';
import { auditEvidence } from '../evidence.ts';
import { type Check, defineCheck, fail, pass } from '../types.ts';

/**
 * An insight fails on a form factor when Lighthouse scores it under 0.9, or, where it gives no score, when it
 * states savings.
 */
export function insightFails(audit: AuditSummary | undefined): boolean {
  if (!audit) return false;
  if (audit.score !== null) return audit.score < 0.9;
  const savings = audit.evidence?.savings;
  return (savings?.ms ?? 0) > 0 || (savings?.bytes ?? 0) > 0;
}

/**
 * The cost of a failed insight on one form factor: Lighthouse's millisecond savings (0.5 at 1 s), else its
 * byte savings (0.5 at 256 KB), else, for insights that state neither, Lighthouse's own score of it (at
 * least 0.3). The check scores the worse of the failing form factors.
 */
function insightScore(audit: AuditSummary): number {
  const { ms, bytes } = audit.evidence?.savings ?? { ms: null, bytes: null };
  if (typeof ms === 'number') return costScore(ms, 1000);
  if (typeof bytes === 'number') return costScore(bytes, 256 * KB);
  return Math.max(0.3, audit.score ?? 1);
}

/** Findings straight from a Lighthouse 13 insight that failed on either form factor (category technical). */
export function insightCheck<const Code extends string>(
  id: string,
  audit: KeptAudit,
  code: Code,
  measures: string,
  weight: number,
  severity: 'warning' | 'info',
): Check {
  return defineCheck({
    id,
    category: 'technical',
    measures: `${measures} Cost: the savings Lighthouse states (milliseconds, else bytes).`,
    weight,
    codes: [code],
    run(obs, { finding }) {
      const failing = FORM_FACTORS.filter((f) => insightFails(obs[f].audits[audit]));
      if (failing.length === 0) return pass();
      const count = Math.max(...failing.map((f) => obs[f].audits[audit]!.items.length));
      return fail(
        Math.min(...failing.map((f) => insightScore(obs[f].audits[audit]!))),
        finding(code, severity, { count }, auditEvidence(obs, audit, { factors: failing })),
      );
    },
  });
}
