/**
 * Fair sharing of one region's Lighthouse slots between accounts: the state and rules of the region's
 * dispatcher workflow (workflows/scan-dispatch.ts). Pure and deterministic (no clock: a tick counter
 * orders arrivals and grants), and plain JSON, so the workflow carries it through continue-as-new.
 *
 * Rules: at most `capacity` scans in flight in the region, at most the account's cap (its plan's
 * `scansInFlightPerRegion`) per account; each account's scans start in the order they were requested;
 * the next free slot goes to the account with the fewest scans in flight, then to the one served least
 * recently (never served counts as longest ago), then to the one whose oldest waiting scan came first.
 */

export interface SlotRequest {
  scanId: string;
  accountId: number;
  /** The account's cap on scans in flight in this region (core/plans.ts). */
  accountCap: number;
  /** The region's capacity (SCAN_REGION_SLOTS); the latest request's value applies. */
  capacity: number;
}

interface Waiting {
  scanId: string;
  accountId: number;
  arrived: number;
}

interface Granted {
  scanId: string;
  accountId: number;
}

interface Account {
  cap: number;
  /** Tick of its last grant; -1 when never served since it last had nothing waiting or in flight. */
  lastGrant: number;
}

export interface SlotState {
  capacity: number;
  tick: number;
  waiting: Waiting[];
  granted: Granted[];
  /** Only accounts with scans waiting or in flight (keys are account ids). */
  accounts: Record<string, Account>;
}

export interface SlotsView {
  capacity: number;
  inFlight: Record<string, number>;
  waiting: Record<string, number>;
}

export const emptySlots = (): SlotState => ({ capacity: 1, tick: 0, waiting: [], granted: [], accounts: {} });

/**
 * Queues a request. Requests are repeated (activity retries, the scan workflow's periodic re-request), so
 * a known scan id is not queued twice: `already_granted` tells the caller to send the grant again.
 */
export function requestSlot(state: SlotState, request: SlotRequest): 'queued' | 'already_waiting' | 'already_granted' {
  state.capacity = Math.max(1, request.capacity);
  const account = (state.accounts[request.accountId] ??= { cap: 1, lastGrant: -1 });
  account.cap = Math.max(1, request.accountCap);
  if (state.granted.some((g) => g.scanId === request.scanId)) return 'already_granted';
  if (state.waiting.some((w) => w.scanId === request.scanId)) return 'already_waiting';
  state.waiting.push({ scanId: request.scanId, accountId: request.accountId, arrived: state.tick++ });
  return 'queued';
}

/** Frees a scan's slot, or withdraws its request if it was still waiting. Unknown ids are ignored. */
export function releaseSlot(state: SlotState, scanId: string): boolean {
  const before = state.granted.length + state.waiting.length;
  const owner = [...state.granted, ...state.waiting].find((s) => s.scanId === scanId)?.accountId;
  state.granted = state.granted.filter((g) => g.scanId !== scanId);
  state.waiting = state.waiting.filter((w) => w.scanId !== scanId);
  if (
    owner !== undefined &&
    !state.granted.some((g) => g.accountId === owner) &&
    !state.waiting.some((w) => w.accountId === owner)
  ) {
    delete state.accounts[owner];
  }
  return state.granted.length + state.waiting.length < before;
}

const inFlight = (state: SlotState, accountId: number): number =>
  state.granted.filter((g) => g.accountId === accountId).length;

/** The waiting scan that should get the next slot, or null when none may start now. */
function nextInLine(state: SlotState): Waiting | null {
  if (state.granted.length >= state.capacity) return null;
  let best: { head: Waiting; running: number; lastGrant: number } | null = null;
  const seen = new Set<number>();
  for (const head of state.waiting) {
    // waiting is in arrival order, so the first entry of an account is its oldest.
    if (seen.has(head.accountId)) continue;
    seen.add(head.accountId);
    const account = state.accounts[head.accountId]!;
    const running = inFlight(state, head.accountId);
    if (running >= account.cap) continue;
    const better =
      !best ||
      running < best.running ||
      (running === best.running &&
        (account.lastGrant < best.lastGrant ||
          (account.lastGrant === best.lastGrant && head.arrived < best.head.arrived)));
    if (better) best = { head, running, lastGrant: account.lastGrant };
  }
  return best?.head ?? null;
}

export const canGrant = (state: SlotState): boolean => nextInLine(state) !== null;

/** Hands out every slot that may be handed out now; returns the scan ids granted, in grant order. */
export function grantSlots(state: SlotState): string[] {
  const granted: string[] = [];
  for (let next = nextInLine(state); next; next = nextInLine(state)) {
    state.waiting.splice(state.waiting.indexOf(next), 1);
    state.granted.push({ scanId: next.scanId, accountId: next.accountId });
    state.accounts[next.accountId]!.lastGrant = state.tick++;
    granted.push(next.scanId);
  }
  return granted;
}

export const isIdle = (state: SlotState): boolean => state.waiting.length === 0 && state.granted.length === 0;

export function slotsView(state: SlotState): SlotsView {
  const count = (list: Array<{ accountId: number }>) => {
    const counts: Record<string, number> = {};
    for (const { accountId } of list) counts[accountId] = (counts[accountId] ?? 0) + 1;
    return counts;
  };
  return { capacity: state.capacity, inFlight: count(state.granted), waiting: count(state.waiting) };
}
