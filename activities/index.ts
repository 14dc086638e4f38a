export interface ActivityDeps {
  /** Throws unless Postgres answers (db/store: Storage.ping). */
  pingPostgres: () => Promise<void>;
  workerIdentity: string;
}

export interface WorkerHealth {
  worker: string;
  postgres: 'ok';
  checkedAt: string;
}

/** Activities are built from their dependencies, wired in worker/main.ts; tests build them the same way. */
export function createActivities(deps: ActivityDeps) {
  return {
    /** Proves that a worker polls the main task queue and reaches Postgres. */
    async workerHealth(): Promise<WorkerHealth> {
      await deps.pingPostgres();
      return { worker: deps.workerIdentity, postgres: 'ok', checkedAt: new Date().toISOString() };
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
