import { bool, ConfigError, oneOf, str, url, type Env } from './parsers.ts';
import type { S3AssetsConfig } from './types.ts';

export const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function loadAssetsS3(env: Env): S3AssetsConfig | null {
  if (oneOf(env, 'ASSETS_BACKEND', ['local', 's3'] as const, 'local') === 'local') return null;
  const endpoint = env.S3_ENDPOINT?.trim() ? url(env, 'S3_ENDPOINT', undefined, ['http:', 'https:']) : null;
  const bucket = str(env, 'S3_BUCKET', undefined);
  if (!BUCKET_NAME.test(bucket))
    throw new ConfigError('S3_BUCKET', 'must be an S3 bucket name (a-z, 0-9, dots, dashes)');
  // Never in the message: the value is a secret.
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim();
  if (!secretAccessKey) throw new ConfigError('S3_SECRET_ACCESS_KEY', 'is required with ASSETS_BACKEND=s3');
  return {
    endpoint,
    region: str(env, 'S3_REGION', 'us-east-1'),
    bucket,
    accessKeyId: str(env, 'S3_ACCESS_KEY_ID', undefined),
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
  };
}
