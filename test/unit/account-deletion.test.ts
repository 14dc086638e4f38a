import { confirmsAccount, LIVE_DATA_SETTLE_MS } from '../../core/account-deletion.ts';
import { loadConfig } from '../../infra/config.ts';
import { SITE_TTL_MS } from '../../ingest/site-cache.ts';
import { baseTestEnv } from '../harness/shared.ts';

describe('deleting an account', () => {
  it('is confirmed by the account’s own e-mail address, whatever its case and surrounding spaces', () => {
    expect(confirmsAccount('anna@example.com', 'Anna@Example.com')).toBe(true);
    expect(confirmsAccount('  ANNA@EXAMPLE.COM ', 'anna@example.com')).toBe(true);
    expect(confirmsAccount('anna@example.co', 'anna@example.com')).toBe(false);
    expect(confirmsAccount('bert@example.com', 'anna@example.com')).toBe(false);
    expect(confirmsAccount('', '')).toBe(false);
    expect(confirmsAccount('   ', 'anna@example.com')).toBe(false);
  });

  it('deletes live data only once the ingest has stopped taking the closed sites’ beacons', () => {
    const { batch } = loadConfig(baseTestEnv()).ingest;
    expect(LIVE_DATA_SETTLE_MS).toBeGreaterThan(SITE_TTL_MS + batch.ms);
  });
});
