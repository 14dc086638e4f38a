import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../infra/config.ts';
import { createAssetStore } from '../../services/asset-store.ts';
import { AssetStoreUnavailable } from '../../services/assets.ts';
import { assetKey, s3AssetStore, scanPrefix } from '../../services/s3-assets.ts';
import { freePort } from '../../stack/ports.ts';

const state = mkdtempSync(join(tmpdir(), 'webperf-asset-store-'));
afterAll(() => rmSync(state, { recursive: true, force: true }));

const SCAN = '01jz8q3m5kx7h2v9w4n6p0r1st';
const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
const S3_ENV = {
  STATE_DIR: state,
  ASSETS_BACKEND: 's3',
  S3_ENDPOINT: 'http://minio:9000/',
  S3_BUCKET: 'webperf-assets',
  S3_ACCESS_KEY_ID: 'webperf',
  S3_SECRET_ACCESS_KEY: SECRET,
};

describe('key layout', () => {
  it("puts each scan's images under a prefix of its own", () => {
    expect(assetKey(SCAN, 'desktop-final.jpg')).toBe(`scans/${SCAN}/desktop-final.jpg`);
    expect(scanPrefix(SCAN)).toBe(`scans/${SCAN}/`);
    // The trailing slash keeps one scan's prefix from matching another id that starts with it.
    expect(`scans/${SCAN}x/desktop-final.jpg`.startsWith(scanPrefix(SCAN))).toBe(false);
  });

  it.each([
    [SCAN, '../desktop-final.jpg'],
    [SCAN, 'desktop-final.png'],
    [SCAN, 'Desktop.jpg'],
    ['../x', 'desktop-final.jpg'],
    [`${SCAN}/x`, 'desktop-final.jpg'],
  ])('refuses %s / %s', (scanId, name) => {
    expect(() => assetKey(scanId, name)).toThrow(/invalid asset/);
  });
});

describe('configuration', () => {
  it('is the local folder by default', () => {
    const config = loadConfig({ STATE_DIR: state });
    expect(config.assetsS3).toBeNull();
    expect(config.assetsDir).toBe(join(state, 'assets'));
  });

  it('reads the bucket with ASSETS_BACKEND=s3; path style by default with an endpoint, not without', () => {
    expect(loadConfig(S3_ENV).assetsS3).toEqual({
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      bucket: 'webperf-assets',
      accessKeyId: 'webperf',
      secretAccessKey: SECRET,
      forcePathStyle: true,
    });
    const aws = loadConfig({ ...S3_ENV, S3_ENDPOINT: '', S3_REGION: 'eu-central-1' }).assetsS3;
    expect(aws).toMatchObject({ endpoint: null, region: 'eu-central-1', forcePathStyle: false });
    expect(loadConfig({ ...S3_ENV, S3_FORCE_PATH_STYLE: 'false' }).assetsS3?.forcePathStyle).toBe(false);
  });

  it('gives processes without keys (ingest, migrations) no bucket and no secret', () => {
    expect(loadConfig(S3_ENV, { keys: false }).assetsS3).toBeNull();
  });

  it.each([
    ['ASSETS_BACKEND', 'disk'],
    ['S3_BUCKET', ''],
    ['S3_BUCKET', 'Not_A_Bucket'],
    ['S3_ACCESS_KEY_ID', ''],
    ['S3_SECRET_ACCESS_KEY', ''],
    ['S3_ENDPOINT', 'minio:9000'],
  ])('refuses %s=%j, naming the variable and never the secret', (variable, value) => {
    let thrown: unknown;
    try {
      loadConfig({ ...S3_ENV, [variable]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).variable).toBe(variable);
    expect((thrown as Error).message).not.toContain(SECRET);
  });
});

describe('createAssetStore', () => {
  it('builds the local store from the default configuration', async () => {
    const store = createAssetStore(loadConfig({ STATE_DIR: state }));
    await store.put(SCAN, 'desktop-final.jpg', Buffer.from('jpeg'));
    expect(await store.get(SCAN, 'desktop-final.jpg')).toEqual(Buffer.from('jpeg'));
    expect(await store.remove(SCAN)).toBe(true);
  });

  it('an S3 store whose server does not answer throws AssetStoreUnavailable naming the bucket, not the secret', async () => {
    const port = await freePort();
    const store = s3AssetStore({ ...loadConfig(S3_ENV).assetsS3!, endpoint: `http://127.0.0.1:${port}` });
    const read = store.get(SCAN, 'desktop-final.jpg');
    await expect(read).rejects.toBeInstanceOf(AssetStoreUnavailable);
    await expect(read).rejects.toThrow(
      `asset store: reading scans/${SCAN}/desktop-final.jpg failed on S3 bucket "webperf-assets" at http://127.0.0.1:${port}`,
    );
    await expect(store.put(SCAN, 'desktop-final.jpg', Buffer.from('x'))).rejects.toThrow(/storing/);
    await expect(store.remove(SCAN)).rejects.toThrow(/removing scans\//);
    // A name that cannot be an image is not looked up at all.
    expect(await store.get(SCAN, '../secret.jpg')).toBeNull();
    await read.catch((error: Error) => expect(`${error.message} ${String(error.cause)}`).not.toContain(SECRET));
  });
});
