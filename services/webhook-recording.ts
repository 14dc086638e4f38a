import { RECORD_BUDGET_MS, RECORD_RETRY_DELAYS_MS, RECORD_TRY_TIMEOUT_MS } from '../core/webhooks/delivery.ts';

/** How recording after a send is retried; the documented constants unless a test passes its own. */
export interface RecordRetry {
  delaysMs: readonly number[];
  tryTimeoutMs: number;
  budgetMs: number;
}

export const RECORD_RETRY: RecordRetry = {
  delaysMs: RECORD_RETRY_DELAYS_MS,
  tryTimeoutMs: RECORD_TRY_TIMEOUT_MS,
  budgetMs: RECORD_BUDGET_MS,
};

export type Retried<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `write` until it succeeds, never throwing: a request that was sent must not be sent again because its
 * record failed, so the write (which must be idempotent) is retried here, `delaysMs` apart, each try given
 * up after `tryTimeoutMs` (its query may still finish; idempotence makes that harmless), and no try after the
 * first started past `deadline` (epoch ms; one budget for all the writes after one send). `write` learns
 * whether Postgres refused a value before (a data exception, SQLSTATE class 22: retrying the same values
 * cannot help) so it can leave the optional ones out.
 */
export async function retriedWrite<T>(
  retry: RecordRetry,
  deadline: number,
  write: (valueRefused: boolean) => Promise<T>,
  onFailure: (error: unknown, tries: number) => void,
): Promise<Retried<T>> {
  let valueRefused = false;
  for (let tries = 1, waits = 0; ; tries++) {
    try {
      return { ok: true, value: await withTimeout(write(valueRefused), retry.tryTimeoutMs) };
    } catch (error) {
      onFailure(error, tries);
      // Straight to a try without the refused value; a second refusal is as final as any other failure.
      if (isDataException(error) && !valueRefused) {
        valueRefused = true;
        continue;
      }
      const delay = retry.delaysMs[waits++];
      if (delay === undefined || Date.now() + delay > deadline) return { ok: false, error };
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

const isDataException = (error: unknown): boolean =>
  typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('22');

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // A try given up keeps running; its late failure must not surface as an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([
      work,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
