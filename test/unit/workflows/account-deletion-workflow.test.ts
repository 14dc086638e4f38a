import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { AccountDeletionActivities } from '../../../activities/account-deletion.ts';
import type { AccountDeletionReport } from '../../../core/account-deletion.ts';
import { mainTaskQueue } from '../../../core/temporal.ts';
import { workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * workflows/account-deletion.ts on the time-skipping test server with stubbed activities: the steps in their
 * order, a step that fails (ClickHouse away for hours) retried until it succeeds while no later step runs
 * before it, and an account that was not closed refused before anything is touched.
 */
const QUEUE = mainTaskQueue('unit-deletion');
const HOUR = 3_600_000;

let bed: WorkflowTestbed;
const calls: string[] = [];
let liveDataFailsUntil = 0;
let closed = true;

beforeAll(async () => {
  bed = await workflowTestbed();
  const step =
    <T>(name: string, value: T) =>
    async (): Promise<T> => {
      calls.push(name);
      return value;
    };
  const activities: AccountDeletionActivities = {
    async checkAccountClosed() {
      calls.push('checkAccountClosed');
      if (!closed) throw ApplicationFailure.nonRetryable('account 7 is not closed', 'AccountNotClosed');
      return true;
    },
    removeTargetSchedules: step('removeTargetSchedules', 2),
    stopWorkflows: step('stopWorkflows', 1),
    removeScanImages: step('removeScanImages', 3),
    async removeLiveData() {
      calls.push(`removeLiveData#${Context.current().info.attempt}`);
      if ((await bed.now()) < liveDataFailsUntil) throw new Error('ClickHouse is unreachable');
      return 1;
    },
    removeRows: step('removeRows', { scans: 3 }),
    removeUser: step('removeUser', true),
  };
  await bed.worker(QUEUE, activities);
}, 60_000);
afterAll(() => bed?.teardown());

beforeEach(() => {
  calls.length = 0;
  liveDataFailsUntil = 0;
  closed = true;
});

const run = (id: string) =>
  bed.env.client.workflow.execute('accountDeletionWorkflow', {
    workflowId: id,
    taskQueue: QUEUE,
    args: [{ userId: 7 }],
  }) as Promise<AccountDeletionReport>;

describe('account deletion workflow', () => {
  it('runs every step once, in order, the user row last', async () => {
    expect(await run('deletion-order')).toEqual({
      userId: 7,
      schedules: 2,
      stoppedWorkflows: 1,
      scanImageFolders: 3,
      liveDataSites: 1,
      rows: { scans: 3 },
      userRow: true,
    });
    expect(calls).toEqual([
      'checkAccountClosed',
      'removeTargetSchedules',
      'stopWorkflows',
      'removeScanImages',
      'removeLiveData#1',
      'removeRows',
      'removeUser',
    ]);
  });

  it('retries a failing step for hours, at most a minute apart, before anything after it runs', async () => {
    liveDataFailsUntil = (await bed.now()) + 3 * HOUR;
    const report = await run('deletion-outage');
    expect(report.userRow).toBe(true);
    const attempts = calls.filter((call) => call.startsWith('removeLiveData'));
    expect(attempts.length).toBeGreaterThan(150);
    expect(attempts.length).toBeLessThan(250);
    expect(calls.slice(calls.indexOf(attempts.at(-1)!) + 1)).toEqual(['removeRows', 'removeUser']);
  });

  it('touches nothing of an account that was not closed', async () => {
    closed = false;
    await expect(run('deletion-refused')).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(calls).toEqual(['checkAccountClosed']);
  });
});
