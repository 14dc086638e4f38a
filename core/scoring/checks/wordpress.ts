import type { ScanObservation } from '../../scan/observation.ts';
import { cacheLifetimeSeconds } from './caching.ts';
import { type Check, type CheckResult, fail, notApplicable, pass } from '../types.ts';

/** WordPress: the generator tag, wp-content / wp-includes URLs, or the REST API link header. */
export function detectWordPress(obs: ScanObservation): boolean {
  if (/^WordPress\b/i.test(obs.generator ?? '')) return true;
  if (obs.responses.some((r) => /\/wp-(content|includes)\//.test(r.url))) return true;
  return obs.responses.some((r) => /rel="https:\/\/api\.w\.org\/"/.test(r.headers.link ?? ''));
}

const onlyForWordPress = (run: (obs: ScanObservation) => CheckResult) => (obs: ScanObservation, ctx: { isWordPress: boolean }) =>
  ctx.isWordPress ? run(obs) : notApplicable();

export const versionExposed: Check = {
  id: 'wordpress.version',
  category: 'wordpress',
  measures: 'The WordPress version published in the generator tag (it tells attackers which exploits apply).',
  weight: 1,
  codes: ['wordpress.version-exposed'],
  run: onlyForWordPress((obs) => {
    const version = /^WordPress\s+([\d.]+)/i.exec(obs.generator ?? '')?.[1];
    return version ? fail(0.5, { category: 'wordpress', code: 'wordpress.version-exposed', severity: 'warning', params: { version } }) : pass();
  }),
};

export const plugins: Check = {
  id: 'wordpress.plugins',
  category: 'wordpress',
  measures: 'Plugins loading assets on the page (more than 10 is a warning).',
  weight: 1,
  codes: ['wordpress.many-plugins'],
  run: onlyForWordPress((obs) => {
    const names = new Set(obs.responses.map((r) => /\/wp-content\/plugins\/([^/]+)\//.exec(r.url)?.[1]).filter(Boolean));
    if (names.size <= 10) return pass();
    return fail(Math.max(0.2, 1 - (names.size - 10) / 20), { category: 'wordpress', code: 'wordpress.many-plugins', severity: 'warning', params: { count: names.size } });
  }),
};

export const jqueryMigrate: Check = {
  id: 'wordpress.jquery-migrate',
  category: 'wordpress',
  measures: 'jquery-migrate, a compatibility script most current themes no longer need.',
  weight: 0.3,
  codes: ['wordpress.jquery-migrate'],
  run: onlyForWordPress((obs) =>
    obs.responses.some((r) => /jquery-migrate(\.min)?\.js/.test(r.url)) ? fail(0.7, { category: 'wordpress', code: 'wordpress.jquery-migrate', severity: 'info', params: {} }) : pass(),
  ),
};

export const emoji: Check = {
  id: 'wordpress.emoji',
  category: 'wordpress',
  measures: "WordPress's emoji script, loaded on every page although browsers render emoji themselves.",
  weight: 0.3,
  codes: ['wordpress.emoji-script'],
  run: onlyForWordPress((obs) =>
    obs.responses.some((r) => /wp-emoji-release(\.min)?\.js/.test(r.url)) ? fail(0.7, { category: 'wordpress', code: 'wordpress.emoji-script', severity: 'info', params: {} }) : pass(),
  ),
};

export const pageCache: Check = {
  id: 'wordpress.page-cache',
  category: 'wordpress',
  measures: 'Whether the HTML is cacheable, as page caching plugins or a CDN make it.',
  weight: 1,
  codes: ['wordpress.no-page-cache'],
  run: onlyForWordPress((obs) => {
    const main = obs.responses.find((r) => r.url === obs.finalUrl);
    if (!main || cacheLifetimeSeconds(main.headers) > 0) return pass();
    return fail(0.5, { category: 'wordpress', code: 'wordpress.no-page-cache', severity: 'warning', params: {} });
  }),
};

export const WORDPRESS_CHECKS = [versionExposed, plugins, jqueryMigrate, emoji, pageCache];
