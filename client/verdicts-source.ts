import { readFileSync } from 'node:fs';

/**
 * The webperf command's copy of the verdict rules: core/verdicts/ is their one source, and the command (its own
 * package, which may not import the service's code) carries a generated copy in cli/verdicts/ that
 * `npm run client:verdicts` writes. A unit test fails when the committed copy is not what this makes.
 */
export const VERDICT_FILES = ['statistics.ts', 'verdict.ts'] as const;

const SOURCE = new URL('../core/verdicts/', import.meta.url);
export const COPY = new URL('./cli/verdicts/', import.meta.url);

/** The copy of `file` as it must be committed: the original under a line naming it. */
export function verdictCopy(file: (typeof VERDICT_FILES)[number]): string {
  const original = readFileSync(new URL(file, SOURCE), 'utf8');
  return `// Generated from core/verdicts/${file} by \`npm run client:verdicts\`: edit the original, not this copy.\n${original}`;
}
