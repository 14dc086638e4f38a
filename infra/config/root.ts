import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: relative paths in the environment (STATE_DIR, WORKFLOW_BUNDLE_PATH) are taken from here. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
