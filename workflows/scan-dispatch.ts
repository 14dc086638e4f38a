import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  patched,
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
 * patched() id of the wake-up when a dispatcher holding slots is left idle, which starts its idle wait. The old
 * branch (no wake-up) can go once every dispatcher run that began before the patch has ended or continued as new.
 */
const IDLE_WAKE_PATCH = 'scan-dispatch-wake-when-idle';

/**
 * One per region (`<prefix>-scan-dispatch-<region>`), started by the first slot request (signal-with-start).
 * Scan workflows and flow runs (workflows/flow-run.ts, by their workflow id) ask for a slot and wait; this hands slots out by the rules of core/scan/slots.ts by
 * signalling each granted scan workflow, and takes them back on release. A scan workflow that ends without
 * releasing (terminated) loses its slot at the next holder check, or at once when its grant cannot be
 * delivered. Its state travels through continue-as-new. It ends DISPATCHER_IDLE_EXIT after it was last left
 * with nothing to do (no slot held, no scan waiting), whatever left it so: a release, a withdrawn request, a
 * holder check, a grant that could not be delivered.
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
  const workToDo = () => canGrant(state) || regrant.size > 0 || historyIsLong();
  for (;;) {
    if (isIdle(state)) {
      // Nothing held, nothing waiting: it ends unless work comes within DISPATCHER_IDLE_EXIT.
      const woken = await condition(workToDo, DISPATCHER_IDLE_EXIT);
      if (!woken && isIdle(state)) return;
    } else if (patched(IDLE_WAKE_PATCH)) {
      // Slots held or scans waiting: also woken when left idle (a release, a withdrawn request, a holder check),
      // which begins the idle wait above.
      await condition(() => workToDo() || isIdle(state));
    } else {
      // A wait replayed from a history made before IDLE_WAKE_PATCH (a run under way when it was deployed) woke
      // only for work to do: left idle, it waited on until the next request (and ended at once had that wait
      // ended with it idle). Its next wait made live takes the branch above.
      await condition(workToDo);
      if (isIdle(state)) return;
    }
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
