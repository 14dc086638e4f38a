/** Marks a failed Temporal schedule call, so that it rolls the transaction back and is told apart from a database error. */
export class ScheduleCallFailed extends Error {
  constructor(cause: unknown) {
    super('Temporal did not take the schedule change', { cause });
  }
}

/** Runs a Temporal schedule call inside a database transaction: its failure becomes a ScheduleCallFailed. */
export async function scheduleCall(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    throw new ScheduleCallFailed(error);
  }
}
