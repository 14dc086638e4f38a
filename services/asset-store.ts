import type { Config } from '../infra/config.ts';
import { localAssetStore, type AssetStore } from './assets.ts';
import { s3AssetStore } from './s3-assets.ts';

/** The one place that picks the asset store's backend: every process builds its store here (docs/assets.md). */
export function createAssetStore(config: Pick<Config, 'assetsDir' | 'assetsS3'>): AssetStore {
  return config.assetsS3 ? s3AssetStore(config.assetsS3) : localAssetStore(config.assetsDir);
}
