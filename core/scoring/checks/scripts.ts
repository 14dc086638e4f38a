import thirdPartyWeb from 'third-party-web';
import { DETAIL_LIMITS, type DetailItem, type FindingItem, type Savings } from '../../scan/details.ts';
import { FORM_FACTORS, type FormFactor } from '../../scan/observation.ts';
import { mergeItems } from '../evidence.ts';
import { impactOf } from '../priority.ts';
import { defineCheck, pass } from '../types.ts';
import { insightCheck } from './insight-check.ts';

export const duplicatedJs = insightCheck(
  'technical.duplicated-javascript',
  'duplicated-javascript-insight',
  'technical.duplicated-javascript',
  'Modules bundled into more than one script, so the same code downloads twice (found through the scripts’ source maps).',
  0.3,
  'warning',
);

/**
 * Third-party embeds (a video player, a chat widget) that a facade could stand in for until the visitor uses
 * them: the products third-party-web (Lighthouse's entity list) knows facades for, found among the requests of
 * each third party Lighthouse lists. Lighthouse 13 dropped its own third-party-facades audit; this is its rule.
 * The saving stated is the entity's main-thread time and transfer size, as that audit stated it.
 */
export const thirdPartyFacades = defineCheck({
  id: 'technical.third-party-facades',
  category: 'technical',
  measures:
    'Third-party embeds (video players, chat widgets) that a lightweight facade could load on first use, as third-party-web lists them. Findings only; the saving stated is the third party’s main-thread time and bytes.',
  weight: 0,
  codes: ['technical.third-party-facades'],
  run(obs, { finding }) {
    const perFactor: Array<readonly [FormFactor, DetailItem[]]> = [];
    const savings: Partial<Record<FormFactor, Savings>> = {};
    for (const factor of FORM_FACTORS) {
      const items: DetailItem[] = [];
      let ms = 0;
      let bytes = 0;
      for (const party of obs[factor].diagnostics?.third_parties ?? []) {
        const product = (party.urls ?? [])
          .map((url) => ({ url, product: thirdPartyWeb.getProduct(url) }))
          .find(({ product }) => product?.facades?.length);
        if (!product) continue;
        items.push({
          url: product.url,
          label: product.product!.name,
          facades: product.product!.facades!.map((f) => f.name).slice(0, DETAIL_LIMITS.rows),
          transfer_bytes: party.transfer_bytes,
          main_thread_ms: party.main_thread_ms,
        });
        ms += party.main_thread_ms;
        bytes += party.transfer_bytes;
      }
      if (items.length === 0) continue;
      perFactor.push([factor, items]);
      savings[factor] = { ms, bytes };
    }
    if (perFactor.length === 0) return pass();
    const items = mergeItems(perFactor);
    const impact = impactOf(savings);
    return {
      score: 1,
      applicable: true,
      findings: [
        finding(
          'technical.third-party-facades',
          'warning',
          { count: items.length, product: items[0]!.label ?? '' },
          { form_factors: perFactor.map(([f]) => f), items, savings, ...(impact ? { impact } : {}) },
        ),
      ],
    };
  },
});

/**
 * document.write() calls while the page loads, as Chromium reported them (the runner reads them from Lighthouse's
 * console messages: activities/lighthouse/document-write.ts). Lighthouse 13 dropped its no-document-write audit;
 * this is its rule. Each call is an item with its script, line and column, merged over the form factors.
 */
export const documentWrite = defineCheck({
  id: 'technical.document-write',
  category: 'technical',
  measures:
    'document.write() calls while the page loads, each with its script, line and column as Chromium reports them: what they write holds up the HTML parser, and on slow connections Chromium does not load the scripts from other sites they write. Findings only: Lighthouse states no saving.',
  weight: 0,
  codes: ['technical.document-write'],
  run(obs, { finding }) {
    const calls = new Map<string, FindingItem>();
    const factors: FormFactor[] = [];
    for (const factor of FORM_FACTORS) {
      const writes = obs[factor].documentWrites ?? [];
      if (writes.length) factors.push(factor);
      for (const { url, line, column } of writes) {
        const key = `${url}:${line}:${column}`;
        let item = calls.get(key);
        if (!item) {
          if (calls.size >= DETAIL_LIMITS.items) continue;
          calls.set(key, (item = { url, line, column, form_factors: [] }));
        }
        item.form_factors!.push(factor);
      }
    }
    const items = [...calls.values()];
    if (items.length === 0) return pass();
    const first = items[0]!;
    return {
      score: 1,
      applicable: true,
      findings: [
        finding(
          'technical.document-write',
          'warning',
          // Line and column as they are, not formatted as numbers are ("1,024" is no column).
          { count: items.length, first_url: first.url!, line: String(first.line), column: String(first.column) },
          { form_factors: factors, items },
        ),
      ],
    };
  },
});

export const SCRIPT_CHECKS = [duplicatedJs, thirdPartyFacades, documentWrite];
