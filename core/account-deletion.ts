/** What the account-deletion workflow is started with (workflows/account-deletion.ts). */
export interface AccountDeletionInput {
  userId: number;
}

/** What each run of the workflow removed; a repeated run reports zeros. */
export interface AccountDeletionReport {
  userId: number;
  schedules: number;
  stoppedWorkflows: number;
  scanImageFolders: number;
  liveDataSites: number;
  rows: Record<string, number>;
  userRow: boolean;
}

/**
 * The typed confirmation of "Delete my account": the account's e-mail address, as shown on the page, whatever
 * its case and surrounding spaces.
 */
export const confirmsAccount = (typed: string, email: string): boolean =>
  typed.trim().toLowerCase() === email.trim().toLowerCase() && typed.trim() !== '';

/** Scans (and their image folders) handled per page by the deletion; bounds memory and statement size. */
export const DELETION_BATCH = 500;

/**
 * How long after the closing the live-data rows are deleted: the ingest refuses beacons of the paused sites
 * once its site cache has expired (30 s) and inserts what it accepted before within its batch time (1 s by
 * default), so rows written after the delete would otherwise be left behind.
 */
export const LIVE_DATA_SETTLE_MS = 60_000;
