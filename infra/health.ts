/**
 * Liveness and readiness, the same for every process. Liveness says the process runs; readiness runs each
 * named dependency check (real queries against Postgres, Temporal, ClickHouse) and is false while draining.
 * The body anyone may read names the checks and their state only: the reasons (they name hosts, ports and
 * database users) go to the log, once when a check starts failing or fails differently, and never over HTTP.
 */

export type Check = () => Promise<void>;

export type CheckState = 'ok' | 'failing';

export interface Readiness {
  ready: boolean;
  status: 'ready' | 'not_ready' | 'draining';
  checks: Record<string, CheckState>;
}

/** Where failing checks are reported (a pino logger fits). */
export interface HealthLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

export class HealthState {
  private draining = false;
  private readonly checks: Record<string, Check>;
  private readonly log: HealthLog | undefined;
  private readonly timeoutMs: number;
  /** Checks reported in the body and the log that do not decide readiness (a dependency the process can do without for a while). */
  private readonly informational: ReadonlySet<string>;
  /** The last reason each check failed for, so the log gets one line per change rather than one per probe. */
  private readonly lastFailure = new Map<string, string>();

  constructor(checks: Record<string, Check>, log?: HealthLog, timeoutMs = 3000, informational: readonly string[] = []) {
    this.checks = checks;
    this.log = log;
    this.timeoutMs = timeoutMs;
    this.informational = new Set(informational);
  }

  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async readiness(extra: Record<string, Check> = {}): Promise<Readiness> {
    const entries = Object.entries({ ...this.checks, ...extra });
    const results = await Promise.all(
      entries.map(async ([name, check]) => [name, await this.runCheck(name, check)] as const),
    );
    const checks = Object.fromEntries(results);
    const allOk = results.every(([name, result]) => result === 'ok' || this.informational.has(name));
    if (this.draining) return { ready: false, status: 'draining', checks };
    return { ready: allOk, status: allOk ? 'ready' : 'not_ready', checks };
  }

  private async runCheck(name: string, check: Check): Promise<CheckState> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        check(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ]);
      if (this.lastFailure.delete(name)) this.log?.info({ check: name }, 'readiness check ok again');
      return 'ok';
    } catch (error) {
      const reason = error instanceof Error ? error.message || error.name : String(error);
      if (this.lastFailure.get(name) !== reason) this.log?.warn({ check: name, reason }, 'readiness check failing');
      this.lastFailure.set(name, reason);
      return 'failing';
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Plain node:http handling of /livez and /readyz, for processes that are not Koa apps. Returns false for other paths. */
export async function serveHealth(
  state: HealthState,
  path: string,
  respond: (status: number, body: unknown) => void,
): Promise<boolean> {
  if (path === '/livez') {
    respond(200, { status: 'alive' });
    return true;
  }
  if (path === '/readyz') {
    const readiness = await state.readiness();
    respond(readiness.ready ? 200 : 503, readiness);
    return true;
  }
  return false;
}

/** How long one run of the API's full readiness check (a workflow round trip) answers for everyone. */
export const FULL_CHECK_SHARED_MS = 5000;

/**
 * A costly check shared by everyone who asks within `windowMs`: callers get the same run, so a public
 * endpoint cannot be used to start work (a Temporal workflow per request) at the caller's pace.
 */
export function sharedCheck(check: Check, windowMs: number, now: () => number = Date.now): Check {
  let last: { at: number; run: Promise<void> } | null = null;
  return () => {
    const at = now();
    if (!last || at - last.at >= windowMs) last = { at, run: check() };
    return last.run;
  };
}
