import type { ScanObservation } from '../../scan/observation.ts';
import { mainDocumentResponse } from '../../scan/main-document.ts';
import { cacheLifetimeSeconds } from './caching.ts';
import { type CheckContext, type CheckResult, defineCheck, fail, notApplicable, pass } from '../types.ts';

/** WordPress: the generator tag, wp-content / wp-includes URLs, or the REST API link header. */
export function detectWordPress(obs: ScanObservation): boolean {
  if (/^WordPress\b/i.test(obs.generator ?? '')) return true;
  if (obs.responses.some((r) => /\/wp-(content|includes)\//.test(r.url))) return true;
  return obs.responses.some((r) => /rel="https:\/\/api\.w\.org\/"/.test(r.headers.link ?? ''));
}

const onlyForWordPress =
  <Ctx extends CheckContext>(run: (obs: ScanObservation, ctx: Ctx) => CheckResult) =>
  (obs: ScanObservation, ctx: Ctx): CheckResult =>
    ctx.isWordPress ? run(obs, ctx) : notApplicable();

export const versionExposed = defineCheck({
  id: 'wordpress.version',
  category: 'wordpress',
  measures: 'The WordPress version published in the generator tag (it tells attackers which exploits apply).',
  weight: 1,
  codes: ['wordpress.version-exposed'],
  run: onlyForWordPress((obs, { finding }) => {
    const version = /^WordPress\s+([\d.]+)/i.exec(obs.generator ?? '')?.[1];
    return version ? fail(0.5, finding('wordpress.version-exposed', 'warning', { version })) : pass();
  }),
});

export const plugins = defineCheck({
  id: 'wordpress.plugins',
  category: 'wordpress',
  measures: 'Plugins loading assets on the page (more than 10 is a warning).',
  weight: 1,
  codes: ['wordpress.many-plugins'],
  run: onlyForWordPress((obs, { finding }) => {
    const names = new Set(
      obs.responses.map((r) => /\/wp-content\/plugins\/([^/]+)\//.exec(r.url)?.[1]).filter(Boolean),
    );
    if (names.size <= 10) return pass();
    return fail(
      Math.max(0.2, 1 - (names.size - 10) / 20),
      finding('wordpress.many-plugins', 'warning', { count: names.size }),
    );
  }),
});

export const jqueryMigrate = defineCheck({
  id: 'wordpress.jquery-migrate',
  category: 'wordpress',
  measures: 'jquery-migrate, a compatibility script most current themes no longer need.',
  weight: 0.3,
  codes: ['wordpress.jquery-migrate'],
  run: onlyForWordPress((obs, { finding }) =>
    obs.responses.some((r) => /jquery-migrate(\.min)?\.js/.test(r.url))
      ? fail(0.7, finding('wordpress.jquery-migrate', 'info'))
      : pass(),
  ),
});

export const emoji = defineCheck({
  id: 'wordpress.emoji',
  category: 'wordpress',
  measures: "WordPress's emoji script, loaded on every page although browsers render emoji themselves.",
  weight: 0.3,
  codes: ['wordpress.emoji-script'],
  run: onlyForWordPress((obs, { finding }) =>
    obs.responses.some((r) => /wp-emoji-release(\.min)?\.js/.test(r.url))
      ? fail(0.7, finding('wordpress.emoji-script', 'info'))
      : pass(),
  ),
});

export const pageCache = defineCheck({
  id: 'wordpress.page-cache',
  category: 'wordpress',
  measures: 'Whether the HTML is cacheable, as page caching plugins or a CDN make it.',
  weight: 1,
  codes: ['wordpress.no-page-cache'],
  run: onlyForWordPress((obs, { finding, scannedAt }) => {
    const main = mainDocumentResponse(obs);
    if (!main || cacheLifetimeSeconds(main.headers, scannedAt, { shared: true }) > 0) return pass();
    return fail(0.5, finding('wordpress.no-page-cache', 'warning'));
  }),
});

export const WORDPRESS_CHECKS = [versionExposed, plugins, jqueryMigrate, emoji, pageCache];
