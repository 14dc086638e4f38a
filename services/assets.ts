import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PUBLIC_ID_PATTERN } from '../core/ids.ts';

/** Where scan images live. The local folder is the default; another store (object storage) fits the same shape. */
export interface AssetStore {
  put(scanId: string, name: string, bytes: Buffer): Promise<void>;
  get(scanId: string, name: string): Promise<Buffer | null>;
  removeScan(scanId: string): Promise<void>;
}

const ASSET_NAME = /^[a-z0-9-]{1,64}\.jpg$/;
const SCAN_ID = new RegExp(PUBLIC_ID_PATTERN);

function checkNames(scanId: string, name: string): void {
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
    async removeScan(scanId) {
      if (SCAN_ID.test(scanId)) await rm(join(root, scanId), { recursive: true, force: true });
    },
  };
}

/** How long a signed image URL of a private scan works. */
export const SIGNED_URL_TTL_S = 24 * 3600;

function signature(key: Buffer, scanId: string, name: string, expires: number): string {
  return createHmac('sha256', key).update(`asset\n${scanId}\n${name}\n${expires}`).digest('base64url');
}

/**
 * Image URLs: permanent for public scans; for private scans signed with an expiry, so only whoever was
 * handed the URL (the owner through the API or report, a share-link holder through the share page) sees them.
 */
export function assetUrl(baseUrl: string, key: Buffer, scan: { public_id: string; is_public: boolean }, name: string, now: Date): string {
  const url = `${baseUrl}/assets/${scan.public_id}/${name}`;
  if (scan.is_public) return url;
  const expires = Math.floor(now.getTime() / 1000) + SIGNED_URL_TTL_S;
  return `${url}?expires=${expires}&signature=${signature(key, scan.public_id, name, expires)}`;
}

export function verifyAssetSignature(key: Buffer, scanId: string, name: string, expires: string | undefined, given: string | undefined, now: Date): boolean {
  if (!expires || !given || !/^\d{1,12}$/.test(expires)) return false;
  if (Number(expires) < now.getTime() / 1000) return false;
  const expected = Buffer.from(signature(key, scanId, name, Number(expires)));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
