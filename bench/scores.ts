/**
 * The scores' properties (fixtures/scoring-properties.ts) over many more generated observations than the
 * unit test runs, from a fresh seed each time (printed, so a failure can be replayed with `--seed`).
 *
 *   npm run bench:scores -- [--runs 5000] [--seed N]
 */
import { parseArgs } from 'node:util';
import { SCORING_PROPERTIES } from '../fixtures/scoring-properties.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5000' }, seed: { type: 'string' } } });
const numRuns = Number(values.runs);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
console.log(`scoring properties: ${numRuns} generated observations each, seed ${seed}`);
let failed = 0;
for (const [name, property] of Object.entries(SCORING_PROPERTIES)) {
  const started = performance.now();
  try {
    property({ seed, numRuns });
    console.log(`  holds  ${name} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    failed += 1;
    console.log(`  FAILS  ${name}\n${String(error instanceof Error ? error.message : error)}`);
  }
}
process.exit(failed ? 1 : 0);
