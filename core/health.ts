/**
 * Liveness and readiness, the same for every process. Liveness says the process runs; readiness runs each
 * named dependency check (real queries against Postgres, Temporal, ClickHouse) and is false while draining.
 */

export type Check = () => Promise<void>;

export interface Readiness {
  ready: boolean;
  status: 'ready' | 'not_ready' | 'draining';
  checks: Record<string, 'ok' | string>;
}

export class HealthState {
  private draining = false;
  private readonly checks: Record<string, Check>;
  private readonly timeoutMs: number;

  constructor(checks: Record<string, Check>, timeoutMs = 3000) {
    this.checks = checks;
    this.timeoutMs = timeoutMs;
  }

  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async readiness(extra: Record<string, Check> = {}): Promise<Readiness> {
    const entries = Object.entries({ ...this.checks, ...extra });
    const results = await Promise.all(entries.map(async ([name, check]) => [name, await this.runCheck(check)] as const));
    const checks = Object.fromEntries(results);
    const allOk = results.every(([, result]) => result === 'ok');
    if (this.draining) return { ready: false, status: 'draining', checks };
    return { ready: allOk, status: allOk ? 'ready' : 'not_ready', checks };
  }

  private async runCheck(check: Check): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        check(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ]);
      return 'ok';
    } catch (error) {
      return `error: ${error instanceof Error ? error.message || error.name : String(error)}`;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Plain node:http handling of /livez and /readyz, for processes that are not Koa apps. Returns false for other paths. */
export async function serveHealth(state: HealthState, path: string, respond: (status: number, body: unknown) => void): Promise<boolean> {
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
