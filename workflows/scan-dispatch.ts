import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import type { ScanSlotActivities } from '../activities/scan-slots.ts';
import { DISPATCHER_IDLE_EXIT, SLOT_HOLDER_CHECK_EVERY } from '../core/scan/lifecycle.ts';
import {
  canGrant,
  emptySlots,
  grantSlots,
  isIdle,
  releaseSlot,
  requestSlot,
  slotsView,
  type SlotRequest,
  type SlotState,
  type SlotsView,
} from '../core/scan/slots.ts';
import { SCAN_SLOT_SIGNALS, slotHolderWorkflowId } from '../core/temporal.ts';

export const requestSlotSignal = defineSignal<[SlotRequest]>(SCAN_SLOT_SIGNALS.request);
export const releaseSlotSignal = defineSignal<[string]>(SCAN_SLOT_SIGNALS.release);
export const slotGrantedSignal = defineSignal(SCAN_SLOT_SIGNALS.granted);
export const slotsQuery = defineQuery<SlotsView>('slots');

const { findEndedScanWorkflows } = proxyActivities<ScanSlotActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export interface DispatcherInput {
  /** The state carried over from the previous run. */
  slots?: SlotState;
  /** History length at which a run continues as new; well under Temporal's warning (10k events). Tests lower it. */
  continueAfterEvents?: number;
  /** How often the holders of slots are checked (ms); SLOT_HOLDER_CHECK_EVERY when not given. Tests shorten it. */
  holderCheckEveryMs?: number;
}

const CONTINUE_AFTER_EVENTS = 4000;

/**
 * One per region (`<prefix>-scan-dispatch-<region>`), started by the first slot request (signal-with-start).
 * Scan workflows and flow runs (workflows/flow-run.ts, by their workflow id) ask for a slot and wait; this hands slots out by the rules of core/scan/slots.ts by
 * signalling each granted scan workflow, and takes them back on release. A scan workflow that ends without
 * releasing (terminated) loses its slot at the next holder check, or at once when its grant cannot be
 * delivered. Its state travels through continue-as-new; it ends after DISPATCHER_IDLE_EXIT with nothing to do.
 */
export async function scanDispatcherWorkflow(input: DispatcherInput = {}): Promise<void> {
  const state = input.slots ?? emptySlots();
  const continueAfter = input.continueAfterEvents ?? CONTINUE_AFTER_EVENTS;
  const historyIsLong = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > continueAfter;
  const regrant = new Set<string>();
  setHandler(requestSlotSignal, (request) => {
    if (requestSlot(state, request) === 'already_granted') regrant.add(request.scanId);
  });
  setHandler(releaseSlotSignal, (scanId) => void releaseSlot(state, scanId));
  setHandler(slotsQuery, () => slotsView(state));

  const deliver = async (scanId: string) => {
    try {
      await getExternalWorkflowHandle(slotHolderWorkflowId(scanId)).signal(slotGrantedSignal);
    } catch {
      releaseSlot(state, scanId); // its workflow is gone: the slot goes to the next in line
    }
  };

  void reclaimAbandonedSlots(state, input.holderCheckEveryMs ?? SLOT_HOLDER_CHECK_EVERY);
  for (;;) {
    const idle = isIdle(state);
    const woken = await condition(
      () => canGrant(state) || regrant.size > 0 || historyIsLong(),
      idle ? DISPATCHER_IDLE_EXIT : undefined,
    );
    if (!woken && isIdle(state)) return;
    const grants = [...grantSlots(state), ...regrant];
    regrant.clear();
    await Promise.all(grants.map(deliver));
    if (historyIsLong()) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof scanDispatcherWorkflow>({
        slots: state,
        continueAfterEvents: input.continueAfterEvents,
        holderCheckEveryMs: input.holderCheckEveryMs,
      });
    }
  }
}

/** While slots are held, asks now and then whether their scan workflows still run; frees those that do not. */
async function reclaimAbandonedSlots(state: SlotState, every: Duration): Promise<never> {
  for (;;) {
    await condition(() => state.granted.length > 0);
    await sleep(every);
    const holders = state.granted.map((g) => g.scanId);
    if (holders.length === 0) continue;
    for (const scanId of await findEndedScanWorkflows(holders)) releaseSlot(state, scanId);
  }
}
