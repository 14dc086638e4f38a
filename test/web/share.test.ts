import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { localAssetStore } from '../../services/assets.ts';
import { createScanStore } from '../../db/store/scans.ts';
import { markFinished } from '../../services/scans.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { cleanObservation, SCANNED_AT } from '../unit/observation-builder.ts';

/**
 * Share links are bearer secrets: they stay out of the access log, and the image URLs a share page hands
 * out stop working as soon as sharing is disabled (the owner's own image URLs keep working).
 */
let api: TestApi;
let token: string;
let scanId: string;
const assetsDir = mkdtempSync(join(tmpdir(), 'webperf-share-assets-'));
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);

beforeAll(async () => {
  api = await startTestApi({ env: { ASSETS_DIR: assetsDir } });
  ({ token } = await createTestUser(api, 'pro'));
  const created = await call(api, '/scans', {
    token,
    method: 'POST',
    body: { url: 'https://shop.example/', public: false },
  });
  scanId = (created.body.data as { id: string }).id;
  // A finished private scan with its images in the store, as the worker leaves it.
  const observation = cleanObservation();
  await markFinished(
    createScanStore(api.db.knex),
    scanId,
    buildResultRecord(observation, scoreScan(observation, SCANNED_AT)),
    api.clock.read(),
  );
  const store = localAssetStore(assetsDir);
  for (const name of ['desktop-final.jpg', 'mobile-final.jpg']) await store.put(scanId, name, JPEG);
});

afterAll(async () => {
  await api.close();
  rmSync(assetsDir, { recursive: true, force: true });
});

const imageUrls = (html: string) =>
  [...html.matchAll(/<img[^>]+src="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
const status = async (url: string) => (await fetch(url)).status;

describe('share pages', () => {
  it("serve their images while sharing is enabled; disabling stops those URLs but not the owner's", async () => {
    const enabled = await call(api, `/scans/${scanId}/share/enable`, { token, method: 'POST' });
    const sharePath = new URL((enabled.body.data as { share_url: string }).share_url).pathname;
    const page = await fetch(`${api.url}${sharePath}`);
    expect(page.status).toBe(200);
    const shareImages = imageUrls(await page.text());
    expect(shareImages.length).toBeGreaterThan(0);
    for (const url of shareImages) expect(url).toMatch(/\/assets\/.+\?expires=\d+&signature=/);
    for (const url of shareImages) expect({ url, status: await status(url) }).toEqual({ url, status: 200 });

    const detail = await call(api, `/scans/${scanId}`, { token });
    const ownerImage = (detail.body.data as { result: { screenshots: { desktop_url: string } } }).result.screenshots
      .desktop_url;
    expect(await status(ownerImage)).toBe(200);

    await call(api, `/scans/${scanId}/share/disable`, { token, method: 'POST' });
    for (const url of shareImages) expect({ url, status: await status(url) }).toEqual({ url, status: 404 });
    expect(await status(ownerImage)).toBe(200);

    // Re-enabling brings back the same share URL, and with it its images.
    await call(api, `/scans/${scanId}/share/enable`, { token, method: 'POST' });
    expect(await status(shareImages[0]!)).toBe(200);
  });

  it('keep the share token and image signatures out of the access log', async () => {
    const enabled = await call(api, `/scans/${scanId}/share/enable`, { token, method: 'POST' });
    const shareToken = (enabled.body.data as { share_url: string }).share_url.split('/share/')[1]!;
    const page = await fetch(`${api.url}/share/${shareToken}`);
    const images = imageUrls(await page.text());
    for (const url of images) await fetch(url);
    // Variants the router also accepts, and a page that is not found (sharing disabled).
    await fetch(`${api.url}/SHARE/${shareToken}/`);
    await call(api, `/scans/${scanId}/share/disable`, { token, method: 'POST' });
    expect((await fetch(`${api.url}/share/${shareToken}`)).status).toBe(404);

    const logs = api.logs();
    expect(logs).toContain('"path":"/share/[redacted]"');
    expect(logs).toContain(`"path":"/assets/${scanId}/`);
    expect(logs).not.toContain(shareToken);
    for (const url of images) expect(logs).not.toContain(new URL(url).searchParams.get('signature'));
  });
});
