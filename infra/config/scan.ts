import { ConfigError, str, type Env } from './parsers.ts';
import type { Config } from './types.ts';

/**
 * A run whose benchmark index is below this was measured on a machine too busy to trust. 1000 is
 * Lighthouse's own threshold for warning that the host CPU is slower than it expects. Measured on a 2-core
 * development box (docs/operations/benchmarks.md, "Median of runs"): 1360-2900 with little else running, 1250-2400 with two
 * Lighthouse runs at once, below 1000 only in moments of four runs at once or a load of 8-18 on 2 cores.
 */
export const DEFAULT_MIN_BENCHMARK_INDEX = 1000;

/** SCAN_REGIONS, DEFAULT_REGION and each region's scan slots. */
export function loadRegions(env: Env): Config['regions'] {
  const available = str(env, 'SCAN_REGIONS', 'local')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  for (const region of available) {
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(region)) {
      throw new ConfigError(
        'SCAN_REGIONS',
        `has an invalid region code "${region}" (lower-case letters, digits, dashes)`,
      );
    }
  }
  const fallback = available[0];
  if (fallback === undefined) throw new ConfigError('SCAN_REGIONS', 'must list at least one region');
  const chosen = str(env, 'DEFAULT_REGION', fallback);
  if (!available.includes(chosen))
    throw new ConfigError('DEFAULT_REGION', `must be one of SCAN_REGIONS (${available.join(', ')})`);
  return { available, default: chosen, slots: regionSlots(env, available) };
}

/** SCAN_REGION_SLOTS: `N` for every region, `region=N` entries, or both (`2,eu=4`); default 1 each. */
function regionSlots(env: Env, available: string[]): Record<string, number> {
  const entries = str(env, 'SCAN_REGION_SLOTS', '1')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const count = (raw: string) => {
    if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1)
      throw new ConfigError('SCAN_REGION_SLOTS', `needs whole numbers of at least 1, got "${raw}"`);
    return Number(raw);
  };
  const bare = entries.filter((e) => !e.includes('='));
  if (bare.length > 1)
    throw new ConfigError('SCAN_REGION_SLOTS', 'may give one number for every region, and region=N entries');
  const fallback = bare[0] === undefined ? 1 : count(bare[0]);
  const slots = Object.fromEntries(available.map((region) => [region, fallback]));
  for (const entry of entries.filter((e) => e.includes('='))) {
    const [region = '', value = ''] = entry.split('=').map((part) => part.trim());
    if (!available.includes(region))
      throw new ConfigError('SCAN_REGION_SLOTS', `names "${region}", which is not in SCAN_REGIONS`);
    slots[region] = count(value);
  }
  return slots;
}
