#!/usr/bin/env node
/** Writes the webperf command's copy of the verdict rules (cli/verdicts/) from core/verdicts/: npm run client:verdicts */
import { writeFileSync } from 'node:fs';
import { COPY, VERDICT_FILES, verdictCopy } from './verdicts-source.ts';

for (const file of VERDICT_FILES) {
  writeFileSync(new URL(file, COPY), verdictCopy(file));
  console.log(`wrote client/cli/verdicts/${file}`);
}
