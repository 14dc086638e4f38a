/** Rewrites the generated part of core/scoring/README.md from the checks: `npm run docs:scoring`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../infra/config.ts';
import { withReference } from '../core/scoring/reference.ts';

const file = resolve(PROJECT_ROOT, 'core/scoring/README.md');
writeFileSync(file, withReference(readFileSync(file, 'utf8')));
console.log(`updated ${file}`);
