import { PLANS } from '../../core/plans.ts';
import {
  emptySlots,
  grantSlots,
  isIdle,
  releaseSlot,
  requestSlot,
  slotsView,
  type SlotState,
} from '../../core/scan/slots.ts';

const A = 1;
const B = 2;
const C = 3;

function queue(state: SlotState, accountId: number, ids: string[], accountCap = 3, capacity = 1): void {
  for (const scanId of ids) requestSlot(state, { scanId, accountId, accountCap, capacity });
}

/** Runs the region like its workers would: the oldest granted scan finishes first. Returns the finishing order. */
function drain(state: SlotState): string[] {
  const order: string[] = [];
  grantSlots(state);
  while (state.granted.length) {
    const done = state.granted[0]!.scanId;
    releaseSlot(state, done);
    order.push(done);
    grantSlots(state);
  }
  return order;
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('region slots', () => {
  it('with one slot, a second account’s scan runs right after the first account’s running one', () => {
    const state = emptySlots();
    queue(state, A, ids('a', 10));
    expect(grantSlots(state)).toEqual(['a1']);
    queue(state, B, ['b1']);
    expect(grantSlots(state)).toEqual([]); // the region is full
    expect(drain(state)).toEqual(['a1', 'b1', ...ids('a', 10).slice(1)]);
    expect(isIdle(state)).toBe(true);
  });

  it('takes turns between accounts, each in its own request order', () => {
    const state = emptySlots();
    queue(state, A, ids('a', 4));
    queue(state, B, ids('b', 3));
    queue(state, C, ids('c', 1));
    expect(drain(state)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'b3', 'a4']);
  });

  it('never gives an account more than its cap, even with free slots', () => {
    const state = emptySlots();
    queue(state, A, ids('a', 5), 2, 4);
    expect(grantSlots(state)).toEqual(['a1', 'a2']);
    expect(slotsView(state)).toEqual({ capacity: 4, inFlight: { [A]: 2 }, waiting: { [A]: 3 } });
    queue(state, B, ids('b', 3), 1, 4);
    expect(grantSlots(state)).toEqual(['b1']);
    releaseSlot(state, 'b1');
    expect(grantSlots(state)).toEqual(['b2']);
    releaseSlot(state, 'a1');
    expect(grantSlots(state)).toEqual(['a3']);
  });

  it('gives a free slot to the account with the fewest scans in flight', () => {
    const state = emptySlots();
    queue(state, A, ids('a', 6), 3, 3);
    expect(grantSlots(state)).toEqual(['a1', 'a2', 'a3']);
    queue(state, B, ids('b', 3), 3, 3);
    releaseSlot(state, 'a1');
    expect(grantSlots(state)).toEqual(['b1']);
    releaseSlot(state, 'a2');
    // A has 1 in flight, B 1: B was served last, so A's turn.
    expect(grantSlots(state)).toEqual(['a4']);
    releaseSlot(state, 'a3');
    expect(grantSlots(state)).toEqual(['b2']);
  });

  it('does not queue or grant a repeated request twice, and ignores unknown releases', () => {
    const state = emptySlots();
    expect(requestSlot(state, { scanId: 'a1', accountId: A, accountCap: 1, capacity: 1 })).toBe('queued');
    expect(requestSlot(state, { scanId: 'a1', accountId: A, accountCap: 1, capacity: 1 })).toBe('already_waiting');
    expect(grantSlots(state)).toEqual(['a1']);
    expect(requestSlot(state, { scanId: 'a1', accountId: A, accountCap: 1, capacity: 1 })).toBe('already_granted');
    expect(grantSlots(state)).toEqual([]);
    expect(releaseSlot(state, 'zz')).toBe(false);
    expect(releaseSlot(state, 'a1')).toBe(true);
    expect(releaseSlot(state, 'a1')).toBe(false);
    expect(isIdle(state)).toBe(true);
    expect(state.accounts).toEqual({});
  });

  it('lets a waiting scan withdraw, and keeps no record of accounts with nothing left', () => {
    const state = emptySlots();
    queue(state, A, ['a1', 'a2']);
    grantSlots(state);
    expect(releaseSlot(state, 'a2')).toBe(true);
    releaseSlot(state, 'a1');
    expect(grantSlots(state)).toEqual([]);
    expect(state).toMatchObject({ waiting: [], granted: [], accounts: {} });
  });

  it('applies the latest region capacity and account cap', () => {
    const state = emptySlots();
    queue(state, A, ['a1', 'a2', 'a3'], 1, 1);
    expect(grantSlots(state)).toEqual(['a1']);
    queue(state, A, ['a4'], 3, 2);
    expect(grantSlots(state)).toEqual(['a2']);
  });

  it('survives a JSON round trip (continue-as-new) unchanged', () => {
    const state = emptySlots();
    queue(state, A, ids('a', 3));
    queue(state, B, ids('b', 2));
    grantSlots(state);
    const copy = JSON.parse(JSON.stringify(state)) as SlotState;
    expect(drain(copy)).toEqual(drain(state));
  });

  it('plans cap scans in flight per region, more for higher plans', () => {
    const caps = [PLANS.free, PLANS.starter, PLANS.pro, PLANS.agency].map((p) => p.scansInFlightPerRegion);
    expect(caps).toEqual([1, 2, 3, 6]);
  });
});
