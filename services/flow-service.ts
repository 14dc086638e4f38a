import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Plan } from '../core/plans.ts';
import type { FlowStore } from '../db/store/flows.ts';
import type { Config } from '../infra/config.ts';
import type { AssetStore } from './assets.ts';

/**
 * User flows as the API manages them (docs/flows.md): definitions checked and normalised, the plan's feature
 * and limits, secrets encrypted on the way in and never given out, and runs queued with their workflow.
 */
export interface FlowServiceDeps {
  flows: FlowStore;
  temporal: Client;
  config: Pick<Config, 'keys' | 'regions' | 'temporal' | 'outboundAllowLoopback'>;
  clock: Clock;
  assets: AssetStore;
}

export interface Owner {
  id: number;
  plan: Plan;
}

export type FlowFailureOutcome =
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'not_found' }
  | { kind: 'plan_required'; plan: Plan; needed: Plan }
  /**
   * The plan keeps no more flows, or (`limited: 'targets'`) monitoring one more would pass the plan's target
   * limit, which monitored flows count against.
   */
  | { kind: 'flow_limit'; plan: Plan; limit: number; upgrade: Plan | undefined; limited?: 'targets' }
  | { kind: 'step_limit'; plan: Plan; limit: number; steps: number; upgrade: Plan | undefined }
  /** Temporal did not take the start, stop or (`schedule`) the schedule change; nothing was changed. */
  | { kind: 'not_started'; cause: unknown; schedule?: true };

/** One field's problem, as every flow operation answers it. */
export const invalid = (field: string, message: string): FlowFailureOutcome => ({
  kind: 'invalid',
  errors: { [field]: [message] },
});
