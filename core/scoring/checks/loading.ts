import type { BfCacheBlocker, CriticalChain, DetailItem, FindingItem } from '../../scan/details.ts';
import { FORM_FACTORS, type FormFactor } from '../../scan/observation.ts';
import { mergeItems } from '../evidence.ts';
import { type Clue, defineCheck, pass } from '../types.ts';
import { insightCheck } from './insight-check.ts';

export const fontDisplay = insightCheck(
  'technical.font-display',
  'font-display-insight',
  'technical.font-display',
  'Web fonts that hide the text while they load (no font-display: swap or optional).',
  0.3,
  'warning',
);

/** A chain of this many requests or more (the document, a stylesheet, a font it names) is reported. */
export const CHAIN_REPORTED_FROM = 3;

/**
 * The longest chain of critical requests (Lighthouse's network dependency tree): each request found only when
 * the one before it arrived. Lighthouse fails its insight for any chain beyond the document; one link (the
 * document and its stylesheet) is how every page loads, so a chain is reported from three requests on.
 */
export const requestChains = defineCheck({
  id: 'technical.request-chains',
  category: 'technical',
  measures: `The longest chain of critical requests, each found only when the one before it arrived (reported from ${CHAIN_REPORTED_FROM} requests). Findings only: Lighthouse states no saving.`,
  weight: 0,
  codes: ['technical.request-chains'],
  run(obs, { finding }) {
    const chains = FORM_FACTORS.map((f) => [f, obs[f].diagnostics?.critical_chain] as const).filter(
      (pair): pair is readonly [FormFactor, CriticalChain] => !!pair[1] && pair[1].length >= CHAIN_REPORTED_FROM,
    );
    if (chains.length === 0) return pass();
    const [, longest] = chains.reduce((a, b) => (b[1].duration_ms > a[1].duration_ms ? b : a));
    const items = mergeItems(
      chains.map(
        ([factor, chain]) =>
          [
            factor,
            chain.requests.map((r): DetailItem => ({ url: r.url, transfer_bytes: r.transfer_bytes, end_ms: r.end_ms })),
          ] as const,
      ),
    );
    return {
      score: 1,
      applicable: true,
      findings: [
        finding(
          'technical.request-chains',
          'info',
          { length: longest.length, duration_ms: longest.duration_ms },
          { form_factors: chains.map(([f]) => f), items },
        ),
      ],
    };
  },
});

/** Chromium's NotRestoredReasons the page can fix, each with a clue that says how (core/i18n/clues.ts). */
const BLOCKER_CLUES: Record<string, string> = {
  MainResourceHasCacheControlNoStore: 'bfcache.no-store',
  JsNetworkRequestReceivedCacheControlNoStoreResource: 'bfcache.no-store-request',
  UnloadHandlerExistsInMainFrame: 'bfcache.unload',
  UnloadHandlerExistsInSubFrame: 'bfcache.unload',
  WebSocket: 'bfcache.websocket',
  BroadcastChannel: 'bfcache.broadcast-channel',
  WebLocks: 'bfcache.web-locks',
  OutstandingNetworkRequestFetch: 'bfcache.open-request',
  OutstandingNetworkRequestXHR: 'bfcache.open-request',
  OutstandingNetworkRequestOthers: 'bfcache.open-request',
  IndexedDBConnection: 'bfcache.indexeddb',
};

const blockerItem = (b: BfCacheBlocker): FindingItem => ({
  reason: b.reason,
  blocker: b.type,
  ...(b.frames[0] ? { url: b.frames[0] } : {}),
});

/**
 * The back/forward cache: whether the page came back from it when Lighthouse left it and went back (tested in
 * the desktop load). A page kept out of it loads again in full when a visitor goes back or forward.
 */
export const bfCache = defineCheck({
  id: 'technical.bf-cache',
  category: 'technical',
  measures:
    'Whether the page is restored from the back/forward cache when a visitor goes back to it, and what prevents it (tested in the desktop load). Findings only: the scan measures the first load.',
  weight: 0,
  codes: ['technical.bf-cache-blocked'],
  run(obs, { finding }) {
    const tested = obs.bfCache;
    if (!tested || tested.restored || tested.blockers.length === 0) return pass();
    const actionable = tested.blockers.filter((b) => b.type === 'actionable');
    const clues: Clue[] = [];
    for (const blocker of actionable) {
      const code = BLOCKER_CLUES[blocker.reason] ?? 'bfcache.other';
      if (!clues.some((c) => c.code === code)) clues.push({ code, params: { reason: blocker.reason } });
    }
    return {
      score: 1,
      applicable: true,
      findings: [
        finding(
          'technical.bf-cache-blocked',
          actionable.length ? 'warning' : 'info',
          { count: tested.blockers.length, actionable: actionable.length },
          { items: tested.blockers.map(blockerItem), ...(clues.length ? { clues } : {}) },
        ),
      ],
    };
  },
});

export const LOADING_CHECKS = [fontDisplay, requestChains, bfCache];
