import thirdPartyWeb from 'third-party-web';

/**
 * Which culprit a long-animation-frame script of an INP interaction counts for (the live-data "top INP
 * culprits"): a first-party script (its host is the site's domain or a subdomain of it) is its own culprit, by
 * URL; third-party scripts group by the entity third-party-web names for their host (as Lighthouse does), or by
 * host when it names none; a script without a URL (an inline handler, or one the browser does not attribute) is
 * the one culprit "inline / unknown".
 *
 * The grouping happens inside the ClickHouse query (p75s cannot be merged afterwards), so the rule is given to
 * it as a table: script host → group key (`hostGroupKey`), the first-party marker standing for "the URL itself".
 * `culpritOf` reads a query's culprit key back.
 */

export type CulpritKind = 'first-party' | 'third-party' | 'inline';

export interface Culprit {
  kind: CulpritKind;
  /** First party: the script URL; third party: the entity's name, or the host; inline: ''. */
  name: string;
  /** third-party-web's entity name; null for first-party, inline and hosts it does not know. */
  entity: string | null;
}

/** The key a first-party host maps to: the query puts the script URL after it. */
export const FIRST_PARTY_MARKER = '1|';
const ENTITY = '3e|';
const HOST = '3h|';
/** The key of scripts without a URL or host. */
export const INLINE_KEY = '';

/** The host names the site itself: its domain or a subdomain of it (as the ingest's origin check). */
export function isFirstPartyHost(host: string, siteDomain: string): boolean {
  const h = host.toLowerCase();
  const domain = siteDomain.toLowerCase();
  return h === domain || h.endsWith(`.${domain}`);
}

/** The group key of a script host (lower-case, as ClickHouse's lower(domain(url)) gives it). */
export function hostGroupKey(host: string, siteDomain: string): string {
  if (host === '') return INLINE_KEY;
  if (isFirstPartyHost(host, siteDomain)) return FIRST_PARTY_MARKER;
  const entity = thirdPartyWeb.getEntity(`https://${host}/`);
  return entity ? `${ENTITY}${entity.name}` : `${HOST}${host}`;
}

/** The key ClickHouse computes when the host table has no entry for a host (hosts third-party-web does not know). */
export const UNKNOWN_HOST_PREFIX = HOST;

/** A culprit key from the query (hostGroupKey's value, the marker followed by the URL for first-party scripts). */
export function culpritOf(key: string): Culprit {
  if (key.startsWith(FIRST_PARTY_MARKER)) return { kind: 'first-party', name: key.slice(2), entity: null };
  if (key.startsWith(ENTITY)) return { kind: 'third-party', name: key.slice(3), entity: key.slice(3) };
  if (key.startsWith(HOST)) return { kind: 'third-party', name: key.slice(3), entity: null };
  return { kind: 'inline', name: '', entity: null };
}

/** The most culprits a query answers, and the most script URLs it lists per culprit. */
export const CULPRITS_LISTED = 20;
export const CULPRIT_SCRIPTS_LISTED = 10;
