import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PUBLIC_ID_PATTERN } from '../core/ids.ts';
import { keyWithId, purposeKey, type Keyring } from '../core/keys.ts';
import type { Scan } from '../core/scan/scan.ts';

/**
 * Where scan images live: a local folder (the default, one machine) or an S3-compatible bucket shared by every
 * machine (services/s3-assets.ts). Built from the configuration by createAssetStore (services/asset-store.ts).
 */
export interface AssetStore {
  put(scanId: string, name: string, bytes: Buffer): Promise<void>;
  /** The image, or null when there is none (or the name cannot be one); throws AssetStoreUnavailable when the store does not answer. */
  get(scanId: string, name: string): Promise<Buffer | null>;
  /** Removes every image of the scan; true when there were any. Nothing there is not an error. */
  remove(scanId: string): Promise<boolean>;
}

/** The store could not be reached or refused the operation (not: the image does not exist). */
export class AssetStoreUnavailable extends Error {
  override name = 'AssetStoreUnavailable';
}

const ASSET_NAME = /^[a-z0-9-]{1,64}\.jpg$/;
const SCAN_ID = new RegExp(PUBLIC_ID_PATTERN);

export const isAssetName = (name: string): boolean => ASSET_NAME.test(name);
export const isScanId = (scanId: string): boolean => SCAN_ID.test(scanId);

export function checkNames(scanId: string, name: string): void {
  if (!SCAN_ID.test(scanId) || !ASSET_NAME.test(name)) throw new Error(`invalid asset ${scanId}/${name}`);
}

export function localAssetStore(root: string): AssetStore {
  return {
    async put(scanId, name, bytes) {
      checkNames(scanId, name);
      await mkdir(join(root, scanId), { recursive: true });
      await writeFile(join(root, scanId, name), bytes);
    },
    async get(scanId, name) {
      if (!SCAN_ID.test(scanId) || !ASSET_NAME.test(name)) return null;
      try {
        return await readFile(join(root, scanId, name));
      } catch {
        return null;
      }
    },
    async remove(scanId) {
      if (!SCAN_ID.test(scanId)) throw new Error(`invalid asset folder ${scanId}`);
      const folder = join(root, scanId);
      const existed = await stat(folder).then(
        () => true,
        () => false,
      );
      await rm(folder, { recursive: true, force: true });
      return existed;
    },
  };
}

/** How long a signed image URL of a private scan works. */
export const SIGNED_URL_TTL_S = 24 * 3600;

/**
 * Who a private scan's image URL is signed for. `owner`: the owner (API responses, the report page); such
 * URLs work until they expire. `share`: visitors of the share page; their signature covers the share token
 * and is accepted only while sharing is enabled, so disabling sharing stops them at once (re-enabling,
 * which brings back the same share URL, brings them back too).
 */
export type ImageAudience = 'owner' | 'share';

type SignedScan = Pick<Scan, 'publicId' | 'shareEnabled' | 'shareToken'>;

function signature(key: Buffer, scope: string, scanId: string, name: string, expires: number): string {
  return createHmac('sha256', key).update(`asset\n${scope}\n${scanId}\n${name}\n${expires}`).digest('base64url');
}

const scopeOf = (audience: ImageAudience, scan: SignedScan): string | null =>
  audience === 'owner' ? 'owner' : scan.shareEnabled && scan.shareToken ? `share:${scan.shareToken}` : null;

/**
 * Image URLs: permanent for public scans; for private scans signed for an audience, with an expiry, so only
 * whoever was handed the URL sees them. The signature names the key it was made with (`<key id>.<mac>`).
 */
export function assetUrl(
  baseUrl: string,
  keys: Keyring,
  scan: SignedScan & Pick<Scan, 'isPublic'>,
  name: string,
  now: Date,
  audience: ImageAudience,
): string {
  const url = `${baseUrl}/assets/${scan.publicId}/${name}`;
  if (scan.isPublic) return url;
  const scope = scopeOf(audience, scan);
  if (!scope) throw new Error(`scan ${scan.publicId} is not shared; no share image URL can be made`);
  const expires = Math.floor(now.getTime() / 1000) + SIGNED_URL_TTL_S;
  const mac = signature(purposeKey(keys.current, 'image-url'), scope, scan.publicId, name, expires);
  return `${url}?expires=${expires}&signature=${keys.current.id}.${mac}`;
}

/** A user-flow run's image URL: always private, signed for the owner (its images sit under the run's id). */
export function flowRunImageUrl(baseUrl: string, keys: Keyring, runPublicId: string, name: string, now: Date): string {
  const run = { publicId: runPublicId, isPublic: false, shareEnabled: false, shareToken: null };
  return assetUrl(baseUrl, keys, run, name, now, 'owner');
}

export function verifyAssetSignature(
  keys: Keyring,
  scan: SignedScan,
  name: string,
  expires: string | undefined,
  given: string | undefined,
  now: Date,
): boolean {
  if (!expires || !given || !/^\d{1,12}$/.test(expires)) return false;
  if (Number(expires) < now.getTime() / 1000) return false;
  const [keyId = '', mac = ''] = given.split('.', 2);
  const master = keyWithId(keys, keyId);
  if (!master) return false;
  const key = purposeKey(master, 'image-url');
  const actual = Buffer.from(mac);
  return (['owner', 'share'] as const).some((audience) => {
    const scope = scopeOf(audience, scan);
    const expected = scope && Buffer.from(signature(key, scope, scan.publicId, name, Number(expires)));
    return !!expected && expected.length === actual.length && timingSafeEqual(expected, actual);
  });
}
