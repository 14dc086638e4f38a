import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3AssetsConfig } from '../infra/config.ts';
import { AssetStoreUnavailable, checkNames, isAssetName, isScanId, type AssetStore } from './assets.ts';

/** Every scan's images under one prefix of its own: `scans/<scan id>/<name>` (docs/assets.md, key layout). */
export function scanPrefix(scanId: string): string {
  if (!isScanId(scanId)) throw new Error(`invalid asset folder ${scanId}`);
  return `scans/${scanId}/`;
}

export function assetKey(scanId: string, name: string): string {
  checkNames(scanId, name);
  return `${scanPrefix(scanId)}${name}`;
}

/** S3 lists and deletes at most 1000 keys per request. */
const PAGE = 1000;

/**
 * Short timeouts and few retries: an image read holds a web request, and a failed write fails the scan's
 * attempt, which Temporal retries as a whole.
 */
export function s3Client(config: S3AssetsConfig): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    maxAttempts: 3,
    retryMode: 'standard',
    requestHandler: { connectionTimeout: 3000, requestTimeout: 15_000 },
    // Checksums only where the API demands them (DeleteObjects): S3-compatible servers differ in the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
  });
}

const notFound = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/** The images in an S3-compatible bucket (MinIO, AWS S3, ...), shared by every api and worker machine. */
export function s3AssetStore(config: S3AssetsConfig, client: S3Client = s3Client(config)): AssetStore {
  const Bucket = config.bucket;
  const where = `S3 bucket "${Bucket}"${config.endpoint ? ` at ${config.endpoint}` : ''}`;
  const unavailable = (what: string, error: unknown) =>
    new AssetStoreUnavailable(`asset store: ${what} failed on ${where}: ${(error as Error).message}`, {
      cause: error,
    });

  return {
    async put(scanId, name, bytes) {
      const Key = assetKey(scanId, name);
      try {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentType: 'image/jpeg' }));
      } catch (error) {
        throw unavailable(`storing ${Key}`, error);
      }
    },
    async get(scanId, name) {
      if (!isScanId(scanId) || !isAssetName(name)) return null;
      const Key = assetKey(scanId, name);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if (notFound(error)) return null;
        throw unavailable(`reading ${Key}`, error);
      }
    },
    async remove(scanId) {
      const Prefix = scanPrefix(scanId);
      let removed = false;
      try {
        // Listing again from the start after each delete: no continuation token to outlive the keys it points past.
        for (;;) {
          const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, MaxKeys: PAGE }));
          const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
          if (keys.length === 0) return removed;
          const deleted = await client.send(
            new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }),
          );
          if (deleted.Errors?.length) {
            const first = deleted.Errors[0]!;
            throw new Error(
              `${deleted.Errors.length} keys not deleted, first ${first.Key}: ${first.Code} ${first.Message}`,
            );
          }
          removed = true;
        }
      } catch (error) {
        throw unavailable(`removing ${Prefix}`, error);
      }
    },
  };
}
