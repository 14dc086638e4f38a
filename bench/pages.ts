/**
 * Lighthouse's performance score of every page of the web area (fixtures/web-area.ts), mobile and desktop,
 * with the audits that cost points. Not a test: the score depends on how busy the machine is. The target is
 * 95 or more everywhere. `--quality` adds accessibility and best practices (which the page-quality test
 * requires at 95); `--lang de` audits the German pages.
 *
 *   ./svc stack up && npm run bench:pages [-- --quality] [-- page ...]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';
import { describeFailures, startPageAuditor, type AuditCategory } from '../fixtures/page-audit.ts';
import { WEB_AREA_PAGES } from '../fixtures/web-area.ts';
import { startWebArea } from './web-area.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { quality: { type: 'boolean', default: false }, lang: { type: 'string', default: 'en' } },
});
const language = values.lang === 'de' ? 'de' : 'en';
const categories: AuditCategory[] = values.quality
  ? ['performance', 'accessibility', 'best-practices']
  : ['performance'];

// A browser of this process only renders the sample scan images; Lighthouse runs in the auditor's own.
const profile = mkdtempSync(join(tmpdir(), 'bench-pages-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`],
  headless: true,
});
const area = await startWebArea('pages', browser);
await browser.close();
rmSync(profile, { recursive: true, force: true });
const auditor = startPageAuditor();

const rows: string[][] = [];
let lowest = 100;
try {
  await auditor.signIn(area.url, area.seeded.email, area.seeded.password);
  // A first run warms Chromium and the app; otherwise the first page measured pays for both.
  await auditor.audit({
    url: `${area.url}/`,
    signedIn: false,
    formFactor: 'mobile',
    categories: ['performance'],
    language,
  });
  for (const page of WEB_AREA_PAGES.filter((p) => positionals.length === 0 || positionals.includes(p.name))) {
    const { name, signedIn } = page;
    const snapshot = 'snapshot' in page;
    const row: string[] = [name];
    for (const formFactor of ['mobile', 'desktop'] as const) {
      // A snapshot has no page load to time: no performance score.
      const asked = snapshot ? categories.filter((c) => c !== 'performance') : categories;
      const answer = asked.length
        ? await auditor.audit({
            url: `${area.url}${area.seeded.paths[name]}`,
            signedIn,
            formFactor,
            categories: asked,
            language,
            snapshot,
          })
        : { scores: {}, failed: [], url: '', id: 0 };
      if (answer.error) throw new Error(`${name} (${formFactor}): ${answer.error}`);
      for (const category of categories) {
        const score = answer.scores[category];
        if (score !== undefined) lowest = Math.min(lowest, score);
        row.push(score === undefined ? 'n/a' : String(score));
      }
      if (answer.failed.length) console.error(`${name} (${formFactor}):\n${describeFailures(answer)}`);
    }
    rows.push(row);
  }
} finally {
  await auditor.close();
  await area.close();
}

const short = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'bp' } as const;
const header = ['page', ...['mobile', 'desktop'].flatMap((f) => categories.map((c) => `${f} ${short[c]}`))];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log([line(header), ...rows.map(line)].join('\n'));
console.log(`lowest: ${lowest}`);
