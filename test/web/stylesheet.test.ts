import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { launchBrowser } from '../harness/browser.ts';
import { startTestApi, type TestApi } from '../harness/api.ts';
import { rawRequest } from '../harness/web.ts';

/** The stylesheet as its per-feature files in web/assets/site/ make it: in name order, a blank line between two. */
const PARTS = new URL('../../web/assets/site/', import.meta.url);
const PART_NAMES = readdirSync(PARTS)
  .filter((name) => name.endsWith('.css'))
  .sort();
const CSS = Buffer.from(PART_NAMES.map((name) => readFileSync(new URL(name, PARTS), 'utf8')).join('\n'));

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

/** The raw bytes of a response (rawRequest decodes text, which a gzipped body is not). */
function bytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((done, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web area stylesheet', () => {
  it('is linked from every page at a URL naming its content, and pages carry no <style> of their own', async () => {
    for (const path of ['/', '/login', '/signup', '/no-such-page']) {
      const page = await rawRequest(`${api.url}${path}`);
      expect(page.text).not.toMatch(/<style/i);
      const href = /<link rel="stylesheet" href="(\/assets\/site\.([0-9a-f]{16})\.css)">/.exec(page.text);
      expect(href).not.toBeNull();
      expect(href![2]).toBe(createHash('sha256').update(CSS).digest('hex').slice(0, 16));
      expect(page.headers['content-security-policy']).toContain("style-src-elem 'self'");
    }
  });

  it('is served as CSS, the per-feature files joined, with a year-long immutable cache, gzipped when asked, and other names are not found', async () => {
    expect(PART_NAMES.length).toBeGreaterThan(1);
    const page = await rawRequest(`${api.url}/login`);
    const path = /href="(\/assets\/site\.[0-9a-f]+\.css)"/.exec(page.text)![1]!;
    const plain = await bytes(`${api.url}${path}`, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.equals(CSS)).toBe(true);
    const gzipped = await bytes(`${api.url}${path}`, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).equals(CSS)).toBe(true);
    console.log(`stylesheet ${CSS.length} bytes, ${gzipped.body.length} gzipped`);
    expect((await bytes(`${api.url}/assets/site.0000000000000000.css`, {})).status).toBe(404);
  });

  it('has a favicon: an SVG linked from every page with a year-long cache, and /favicon.ico an icon, not a 404', async () => {
    for (const path of ['/', '/login', '/no-such-page']) {
      const page = await rawRequest(`${api.url}${path}`);
      expect(page.text).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">');
      expect(page.text).toMatch(/<link rel="icon" href="\/assets\/favicon\.[0-9a-f]{16}\.svg" type="image\/svg\+xml">/);
    }
    const page = await rawRequest(`${api.url}/login`);
    const svgPath = /href="(\/assets\/favicon\.[0-9a-f]{16}\.svg)"/.exec(page.text)![1]!;
    const svg = await bytes(`${api.url}${svgPath}`, {});
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(svg.body.toString()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svgPath).toContain(createHash('sha256').update(svg.body).digest('hex').slice(0, 16));
    const ico = await bytes(`${api.url}/favicon.ico`, {});
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    expect(ico.headers['cache-control']).toBe('public, max-age=2592000');
    expect([...ico.body.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // an ICO file's header
    expect((await bytes(`${api.url}/assets/favicon.0000000000000000.svg`, {})).status).toBe(404);
  });

  it('applies in Chromium under the page CSP, which blocks an injected <style> but lets style attributes place chart parts', async () => {
    const { browser, close } = await launchBrowser();
    try {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(`${api.url}/login`);
      // A string, as the test's TypeScript has no DOM types.
      const styles = (await page.evaluate(`(() => {
        const read = () => ({ body: getComputedStyle(document.body).backgroundColor, button: getComputedStyle(document.querySelector('#sign-in')).backgroundColor });
        const before = read();
        const injected = document.createElement('style');
        injected.textContent = 'body { background: rgb(255, 0, 0) !important; }';
        document.head.append(injected);
        const marker = document.createElement('p');
        marker.setAttribute('style', 'width: 123px');
        document.body.append(marker);
        return { before, after: read(), attribute: getComputedStyle(marker).width };
      })()`)) as { before: { body: string; button: string }; after: { body: string }; attribute: string };
      // The layout's colours: the page background and the brand-coloured button (no monitoring-only button style leaks in).
      expect(styles.before).toEqual({ body: 'rgb(246, 248, 250)', button: 'rgb(11, 61, 145)' });
      expect(styles.after.body).toBe('rgb(246, 248, 250)');
      expect(styles.attribute).toBe('123px');
      expect(violations.join('\n')).toMatch(/style-src-elem/);
    } finally {
      await close();
    }
  });
});
