import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import { auditNode, type Lhr } from '../../fixtures/actionable-results.ts';

/**
 * What the report and the API must say of /clues/ (fixtures/clues-page.ts), checked against Lighthouse's own JSON
 * of the same run: for the unit test over the recorded run (test/unit/lighthouse-clues.test.ts) and the
 * integration test over a real scan (test/scans/clues-report.test.ts).
 */

/** A finding as the API returns it (the fields these checks read). */
export interface ApiFinding {
  code: string;
  title: string;
  message: string;
  recommendation: string;
  form_factors?: FormFactor[];
  items?: Array<Record<string, unknown> & { url?: string; selector?: string; label?: string }>;
  savings?: Partial<Record<FormFactor, { ms: number | null; bytes: number | null }>>;
  clues?: string[];
  impact?: { ms: number; bytes: number };
  priority?: number;
}

const round = Math.round;
const found = (findings: ApiFinding[], code: string): ApiFinding => {
  const finding = findings.find((f) => f.code === code);
  if (!finding) throw new Error(`no ${code} among ${findings.map((f) => f.code).join(', ')}`);
  return finding;
};
const path = (url: string | undefined) => (url ? new URL(url).pathname : undefined);

/** A checklist of an insight's details (a list holding one) by key. */
function checklist(lhr: Lhr, id: string): Record<string, boolean> {
  const items = (lhr.audits[id]?.details?.items ?? []) as Array<{
    type?: string;
    items?: Record<string, { value: boolean }>;
  }>;
  const list = items.find((i) => i.type === 'checklist')?.items ?? {};
  return Object.fromEntries(Object.entries(list).map(([key, entry]) => [key, entry.value]));
}

/** Each layout shift's culprits as Lighthouse's cls-culprits-insight names them: the cause, and the element or URL. */
export function lighthouseCulprits(lhr: Lhr): Array<{ moved: string; cause: string; selector?: string; url?: string }> {
  const rows = (firstTable(lhr, 'cls-culprits-insight')?.items ?? []) as Array<Record<string, unknown>>;
  return rows.flatMap((row) => {
    const moved = (row.node as { selector?: string } | undefined)?.selector;
    const subs = ((row.subItems as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? []) as Array<{
      cause: string;
      extra?: { type: string; selector?: string; value?: string };
    }>;
    if (!moved) return [];
    return subs.map((s) => ({
      moved,
      cause: s.cause,
      ...(s.extra?.type === 'node' ? { selector: s.extra.selector } : {}),
      ...(s.extra?.type === 'url' ? { url: s.extra.value } : {}),
    }));
  });
}

function firstTable(lhr: Lhr, id: string): Record<string, unknown> | undefined {
  const details = lhr.audits[id]?.details;
  if (details?.type !== 'list') return details;
  return (details.items as Array<Record<string, unknown>>).find((i) => i.type === 'table');
}

/** The requests of the chain network-dependency-tree-insight marks longest, the document first. */
function longestChain(lhr: Lhr): Array<{ url: string; end: number }> {
  type Node = { url: string; navStartToEndTime: number; isLongest?: boolean; children: Record<string, Node> };
  const sections = (lhr.audits['network-dependency-tree-insight']?.details?.items ?? []) as Array<{
    value?: { type?: string; chains?: Record<string, Node> };
  }>;
  let level = sections.find((s) => s.value?.type === 'network-tree')?.value?.chains ?? {};
  const path: Array<{ url: string; end: number }> = [];
  for (
    let next = Object.values(level).find((n) => n.isLongest);
    next;
    next = Object.values(level).find((n) => n.isLongest)
  ) {
    path.push({ url: next.url, end: next.navStartToEndTime });
    level = next.children;
  }
  return path;
}

/** Findings in the order of what they save, the first three with an impact numbered 1, 2, 3. */
export function expectSavingsOrder(findings: ApiFinding[]): void {
  const withImpact = findings.filter((f) => f.impact);
  expect(findings.slice(0, withImpact.length).map((f) => f.code)).toEqual(withImpact.map((f) => f.code));
  for (let i = 1; i < withImpact.length; i++) {
    const [a, b] = [withImpact[i - 1]!.impact!, withImpact[i]!.impact!];
    expect(a.ms > b.ms || (a.ms === b.ms && a.bytes >= b.bytes)).toBe(true);
  }
  expect(findings.filter((f) => f.priority).map((f) => [f.code, f.priority])).toEqual(
    withImpact.slice(0, 3).map((f, i) => [f.code, i + 1]),
  );
}

/**
 * The performance clues of /clues/ in the API's findings, as Lighthouse's JSON of the same run has them: the lazy
 * LCP image without fetchpriority (and no preload suggested), the unsized image and the web font that caused the
 * shifts, the font that hides text, the chain of critical requests that ends with it, the library bundled twice,
 * the legacy polyfill, the unload handler that keeps
 * the page out of the back/forward cache, the oversized hero.
 */
export function expectCluesNamed(findings: ApiFinding[], lhr: Record<FormFactor, Lhr>): void {
  expectSavingsOrder(findings);

  // LCP request discovery: Lighthouse's checklist says lazy-loaded and no fetchpriority on both form factors.
  const discovery = found(findings, 'speed.lcp-discovery');
  for (const factor of FORM_FACTORS) {
    expect(checklist(lhr[factor], 'lcp-discovery-insight')).toMatchObject({
      eagerlyLoaded: false,
      priorityHinted: false,
    });
    expect(auditNode(lhr[factor].audits['lcp-discovery-insight'])!.selector).toBe('body > main > img#hero');
    const phases = firstTable(lhr[factor], 'lcp-breakdown-insight')!.items as Array<{
      subpart: string;
      duration: number;
    }>;
    const delay = phases.find((p) => p.subpart === 'resourceLoadDelay')!.duration;
    expect(discovery.savings![factor]).toEqual({ ms: round(delay), bytes: null });
  }
  expect(discovery.clues).toEqual(['lcp.lazy-loaded', 'lcp.no-fetchpriority']);
  expect(discovery.items![0]!.selector).toBe('body > main > img#hero');
  expect(discovery.recommendation).toContain('loading="lazy"');
  expect(discovery.recommendation).toContain('fetchpriority="high"');
  expect(discovery.recommendation).not.toMatch(/preload/i);

  // Layout shifts: the culprits Lighthouse names (the image without dimensions, the web font), beside what moved.
  const culprits = FORM_FACTORS.flatMap((f) => lighthouseCulprits(lhr[f]));
  expect(culprits).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ cause: 'Unsized image element', selector: 'body > main > img.unsized' }),
      expect.objectContaining({ cause: 'Web font' }),
    ]),
  );
  const font = culprits.find((c) => c.cause === 'Web font')!;
  expect(path(font.url)).toBe('/clues/wide.ttf');
  const shifts = found(findings, 'speed.cls-high');
  const image = culprits.find((c) => c.selector === 'body > main > img.unsized')!;
  expect(shifts.items).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ selector: image.selector, cause: 'unsized-image', moved: image.moved }),
      expect.objectContaining({ url: font.url, cause: 'web-font', moved: font.moved }),
    ]),
  );
  expect(shifts.clues).toEqual(expect.arrayContaining(['cls.unsized-image', 'cls.web-font']));
  expect(shifts.message).toContain('body > main > img.unsized, an image without width and height, moved');
  expect(found(findings, 'images.unsized').items!.map((i) => i.selector)).toContain('body > main > img.unsized');

  // Font display: the font hides text for as long as Lighthouse says, on each form factor it failed on.
  const fontDisplay = found(findings, 'technical.font-display');
  expect(fontDisplay.items!.map((i) => path(i.url))).toEqual(['/clues/wide.ttf']);
  for (const factor of fontDisplay.form_factors!)
    expect(fontDisplay.savings![factor]!.ms).toBe(
      round(lhr[factor].audits['font-display-insight']!.metricSavings!.FCP!),
    );

  // Duplicated JavaScript: the library, the two scripts carrying it, Lighthouse's bytes.
  const duplicated = found(findings, 'technical.duplicated-javascript');
  expect(duplicated.items![0]!.label).toMatch(/node_modules\/tiny-lib/);
  expect((duplicated.items![0]!.copies as string[]).map(path).sort()).toEqual([
    '/clues/vendor-a.js',
    '/clues/vendor-b.js',
  ]);
  for (const factor of duplicated.form_factors!)
    expect(duplicated.savings![factor]!.bytes).toBe(
      (lhr[factor].audits['duplicated-javascript-insight']!.details!.debugData as { wastedBytes: number }).wastedBytes,
    );

  // Legacy JavaScript: the polyfill and the transform Lighthouse found.
  const legacy = found(findings, 'technical.legacy-javascript');
  expect(legacy.items!.find((i) => path(i.url) === '/clues/legacy.js')!.signals).toEqual(
    expect.arrayContaining(['Array.prototype.includes', '@babel/plugin-transform-classes']),
  );

  // The longest chain of critical requests, in order, as Lighthouse's network dependency tree marks it.
  const chains = found(findings, 'technical.request-chains');
  for (const factor of chains.form_factors!) {
    const path = longestChain(lhr[factor]);
    expect(path.map((r) => new URL(r.url).pathname)).toEqual(['/clues/', '/clues/style.css', '/clues/wide.ttf']);
  }
  const worst = chains
    .form_factors!.map((f) => longestChain(lhr[f]))
    .reduce((a, b) => (b.at(-1)!.end > a.at(-1)!.end ? b : a));
  expect(chains.items!.map((i) => i.url)).toEqual(worst.map((r) => r.url));
  expect(chains.message).toContain('has 3 requests');

  // The back/forward cache (tested in the desktop load): the unload handler Lighthouse names, and how to let it in.
  const bfRows = (lhr.desktop.audits['bf-cache']?.details?.items ?? []) as Array<{ protocolReason: string }>;
  expect(bfRows.map((r) => r.protocolReason)).toContain('UnloadHandlerExistsInMainFrame');
  const bfCache = found(findings, 'technical.bf-cache-blocked');
  expect(bfCache.items!.map((i) => i.reason)).toEqual(bfRows.map((r) => r.protocolReason));
  expect(bfCache.items).toContainEqual(
    expect.objectContaining({ reason: 'UnloadHandlerExistsInMainFrame', blocker: 'actionable' }),
  );
  expect(bfCache.recommendation).toContain('pagehide');

  // The hero: sized for a larger display, with Lighthouse's savings.
  const oversized = found(findings, 'images.oversized');
  const hero = oversized.items!.find((i) => path(i.url) === '/clues/hero.png')!;
  expect(hero.fixes).toEqual(expect.arrayContaining(['modern-format']));
  for (const factor of oversized.form_factors!)
    expect(oversized.savings![factor]!.bytes).toBe(
      (lhr[factor].audits['image-delivery-insight']!.details!.debugData as { wastedBytes: number }).wastedBytes,
    );
}

/**
 * The document.write() call of /clues/ (Lighthouse 13 has no audit for it; the runner reads Chromium's report of
 * it from Lighthouse's console messages, which its JSON does not keep): one finding, seen on both form factors,
 * naming the page's inline script by its URL, and a line and column of `source` (the script's text as served)
 * where the call is. Returns the call's place, counted from 1.
 */
export async function expectDocumentWriteNamed(
  findings: ApiFinding[],
  source: (url: string) => string | Promise<string>,
): Promise<{ url: string; line: number; column: number }> {
  const finding = found(findings, 'technical.document-write');
  expect(finding.form_factors).toEqual([...FORM_FACTORS]);
  expect(finding.items).toHaveLength(1);
  const call = finding.items![0] as { url: string; line: number; column: number; form_factors: FormFactor[] };
  expect(path(call.url)).toBe('/clues/');
  expect(call.form_factors).toEqual([...FORM_FACTORS]);
  const line = (await source(call.url)).split('\n')[call.line - 1] ?? '';
  // Chromium places the call at the method's name: `write(` begins at the column.
  expect(line.slice(call.column - 1)).toMatch(/^write\(/);
  expect(line.slice(0, call.column - 1)).toMatch(/document\.$/);
  expect(finding.savings).toBeUndefined();
  expect(finding.message).toContain(`at line ${call.line}, column ${call.column}`);
  return call;
}

/** The report page names each problem with its element and savings, and shows the three to fix first in order. */
export function expectReportNamesClues(page: string, findings: ApiFinding[]): void {
  const first = findings.filter((f) => f.priority).sort((a, b) => a.priority! - b.priority!);
  expect(first).toHaveLength(3);
  const section = /<section id="fix-first">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '';
  const listed = [...section.matchAll(/data-code="([^"]+)" data-priority="(\d)"/g)].map((m) => [m[1], Number(m[2])]);
  expect(listed).toEqual(first.map((f) => [f.code, f.priority]));
  const order = [...page.matchAll(/<div class="finding[^"]*"[^>]*data-code="([^"]+)"/g)].map((m) => m[1]);
  expect(order).toEqual(findings.map((f) => f.code));
  for (const named of [
    'body &gt; main &gt; img#hero',
    'body &gt; main &gt; img.unsized',
    '/clues/wide.ttf',
    'node_modules/tiny-lib',
    '/clues/vendor-b.js',
    'image without width and height',
    'Remove loading=&quot;lazy&quot;',
  ])
    expect(page).toContain(named);
  expect(page).toMatch(/Fix first[\s\S]*saves about <span class="impact">\d/);
}
