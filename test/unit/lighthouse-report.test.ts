import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { prepareLighthouseReport } from '../../activities/lighthouse/report.ts';
import { PLAN_KEYS, PLANS } from '../../core/plans.ts';
import { redactSecrets, REDACTED } from '../../core/redaction.ts';
import { credentialSecrets } from '../../core/scan/credentials.ts';
import { lighthouseReportCsp } from '../../web/scans/report-lighthouse.ts';

/**
 * The whole Lighthouse result as kept: the credentials scrubbed in every form a page may echo them, the JSON
 * valid whatever the secret, compressed; the HTML report's policy; the README's retention table against the
 * plans. The real runner and worker: test/scans/lighthouse-report.test.ts.
 */
const actionable = JSON.parse(
  gunzipSync(readFileSync(new URL('./fixtures/lhr-actionable-desktop.json.gz', import.meta.url))).toString(),
) as Record<string, unknown>;

describe('credentials in a Lighthouse result', () => {
  const basic = { type: 'basic' as const, username: 'preview', password: 'p@ss word/1' };
  const header = { type: 'header' as const, header_name: 'X-Key', header_value: 'k3y value' };

  it('are the password (and its basic auth token) or the header value, not the user or header name', () => {
    const token = Buffer.from('preview:p@ss word/1').toString('base64');
    const redacted = (value: string, credentials: Parameters<typeof credentialSecrets>[0]) =>
      credentialSecrets(credentials).redact(value);
    expect(redacted(`preview:p@ss word/1 ${token}`, basic)).toBe(`preview:${REDACTED} ${REDACTED}`);
    expect(redacted('X-Key: k3y%20value', header)).toBe(`X-Key: ${REDACTED}`);
    expect(redacted('k3y value', null)).toBe('k3y value');
  });

  it('are replaced in every string and key, wherever they sit in it', () => {
    const lhr = {
      finalDisplayedUrl: `https://site.example/?key=${encodeURIComponent('p@ss word/1')}`,
      audits: {
        'network-requests': { details: { items: [{ url: 'https://site.example/a.css?t=p@ss word/1' }] } },
        'lcp-breakdown-insight': { details: { node: { nodeLabel: 'Signed in with p@ss word/1' } } },
      },
      [`p@ss word/1`]: 'as a key too',
      header: `Basic ${Buffer.from('preview:p@ss word/1').toString('base64')}`,
      untouched: 42,
    };
    const text = JSON.stringify(redactSecrets(lhr, credentialSecrets(basic)));
    for (const form of ['p@ss word/1', encodeURIComponent('p@ss word/1'), 'preview:p@ss'])
      expect(text).not.toContain(form);
    expect(text).toContain(`https://site.example/?key=${REDACTED}`);
    expect(text).toContain(`Signed in with ${REDACTED}`);
    expect(text).toContain(`"header":"Basic ${REDACTED}"`);
    expect(text).toContain('"untouched":42');
  });

  it('leave valid JSON even when the secret is JSON syntax', () => {
    const syntax = { type: 'header' as const, header_name: 'X', header_value: '","' };
    const scrubbed = redactSecrets({ a: 'x","y', b: ['","'] }, credentialSecrets(syntax));
    expect(JSON.parse(JSON.stringify(scrubbed))).toEqual({ a: `x${REDACTED}y`, b: [REDACTED] });
  });

  it('change nothing of a result without them, which is stored whole and compressed', () => {
    const report = prepareLighthouseReport(actionable, 'desktop');
    expect(report.formFactor).toBe('desktop');
    const json = gunzipSync(report.gzip);
    expect(json.length).toBe(report.jsonBytes);
    expect(JSON.parse(json.toString())).toEqual(actionable);
    expect(report.gzip.length).toBeLessThan(report.jsonBytes / 4);
  });
});

describe("Lighthouse's HTML report", () => {
  it('gets a policy allowing exactly its own inline scripts, in a sandbox', () => {
    const page = '<html><script>one()</script><p>x</p><script>two()</script></html>';
    const csp = lighthouseReportCsp(page);
    const scripts = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
    expect(scripts).toHaveLength(2);
    expect(scripts.every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s))).toBe(true);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toMatch(/(^|; )default-src 'none'(;|$)/);
    expect(csp).toMatch(/(^|; )sandbox allow-scripts[^;]*(;|$)/);
    expect(csp).not.toMatch(/sandbox[^;]*allow-same-origin/);
    expect(csp).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
  });
});

describe('the README', () => {
  it("states each plan's retention of Lighthouse results as core/plans.ts has it", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.split('## What is kept, and for how long')[1]!.split('\n## ')[0]!;
    const rows = [...section.matchAll(/^\| (\w+) \| (\d+) days \|$/gm)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toEqual(PLAN_KEYS.map((key) => [PLANS[key].label, PLANS[key].lighthouseReportDays]));
  });
});
