import thirdPartyWeb from 'third-party-web';
import { DETAIL_LIMITS, type DetailItem, type Savings } from '../../scan/details.ts';
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

export const SCRIPT_CHECKS = [duplicatedJs, thirdPartyFacades];
