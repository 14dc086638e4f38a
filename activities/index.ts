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

/** The worker health activity. Every activity is built from its dependencies in worker/activities.ts, for the worker process and the tests alike. */
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
