import { CATEGORY_KEYS } from '../../../core/scoring/categories.ts';
import { CHECKS } from '../../../core/scoring/index.ts';
import type { Severity } from '../../../core/scoring/types.ts';
import type { Fixture } from './fixtures/common.ts';
import { ALL_FIXTURES } from './fixtures/index.ts';

const SEVERITIES: readonly Severity[] = ['critical', 'warning', 'info'];

/** Every fixture of every check, each also with isWordPress flipped. */
const EVERY_FIXTURE: Array<{ name: string; fixture: Fixture }> = Object.entries(ALL_FIXTURES).flatMap(([id, set]) =>
  Object.entries(set).flatMap(([name, f]) => [
    { name: `${id}/${name}`, fixture: f },
    {
      name: `${id}/${name} (isWordPress ${!f.ctx.isWordPress})`,
      fixture: { obs: f.obs, ctx: { ...f.ctx, isWordPress: !f.ctx.isWordPress } },
    },
  ]),
);

/** Every check run on every fixture. */
const RUNS = CHECKS.flatMap((check) =>
  EVERY_FIXTURE.map(({ name, fixture }) => ({ check, name, result: check.run(fixture.obs, fixture.ctx) })),
);

describe('check definitions', () => {
  it("every finding any check emits, over all the fixtures, carries the check's own category and one of its declared codes", () => {
    const findings = RUNS.flatMap(({ check, name, result }) =>
      result.findings.map((finding) => ({ check, where: `${check.id} on ${name}`, finding })),
    );
    expect(findings.length).toBeGreaterThan(100);
    const foreign = findings.filter(
      ({ check, finding }) => finding.category !== check.category || !check.codes.includes(finding.code),
    );
    expect(foreign.map(({ where, finding }) => ({ where, finding }))).toEqual([]);
    const malformed = findings.filter(
      ({ finding }) =>
        !SEVERITIES.includes(finding.severity) ||
        Object.values(finding.params).some((v) => typeof v !== 'string' && typeof v !== 'number'),
    );
    expect(malformed.map(({ where, finding }) => ({ where, finding }))).toEqual([]);
  });

  it('every check has fixtures, and every code it declares is emitted by one of them', () => {
    expect(Object.keys(ALL_FIXTURES).sort()).toEqual(CHECKS.map((c) => c.id).sort());
    for (const check of CHECKS) {
      const emitted = new Set(
        RUNS.filter((r) => r.check === check).flatMap((r) => r.result.findings.map((f) => f.code)),
      );
      expect({ id: check.id, emitted: [...emitted].sort() }).toEqual({
        id: check.id,
        emitted: [...check.codes].sort(),
      });
    }
  });

  it('every check has a unique id prefixed with its category, and returns a score between 0 and 1', () => {
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(CHECKS.length);
    for (const check of CHECKS) {
      expect(CATEGORY_KEYS).toContain(check.category);
      expect(check.id.startsWith(`${check.category}.`)).toBe(true);
    }
    const outOfRange = RUNS.filter(({ result }) => !(result.score >= 0 && result.score <= 1));
    expect(outOfRange.map(({ check, name, result }) => `${check.id} on ${name}: ${result.score}`)).toEqual([]);
  });
});
