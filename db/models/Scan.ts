import { Model } from 'objection';
import type { FailureCode } from '../../core/scan/failures.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';

export type ScanStatus = 'queued' | 'running' | 'finished' | 'failed';
export type AuthType = 'basic' | 'header';

export class Scan extends Model {
  static override tableName = 'scans';
  static override jsonAttributes = ['result'];

  declare id: number;
  declare public_id: string;
  declare user_id: number;
  declare url: string;
  declare host: string;
  declare region: string;
  declare is_public: boolean;
  declare status: ScanStatus;
  declare auth_type: AuthType | null;
  declare auth_secret: string | null;
  declare cache_key: string | null;
  declare share_token: string | null;
  declare share_enabled: boolean;
  declare requested_at: Date;
  declare started_at: Date | null;
  declare finished_at: Date | null;
  /** Written only through markFailed (services/scans.ts), which takes a FailureCode. */
  declare failure_code: FailureCode | null;
  /** For operators only (runner output, resolved addresses): never shown to users, who see the code's own text. */
  declare failure_message: string | null;
  /** The main document's status of an `http_error`, the one detail users are shown. */
  declare failure_http_status: number | null;
  declare result: ScanResultRecord | null;
}
