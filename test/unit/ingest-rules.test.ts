import { resolve } from 'node:path';
import { ConfigError, loadConfig, PROJECT_ROOT } from '../../infra/config.ts';
import { botMatcher } from '../../ingest/bots.ts';
import { hostMatchesDomain, senderHost } from '../../ingest/origin.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe('bots', () => {
  it('lets browsers through and drops crawlers, lab tools, automation, HTTP libraries and empty agents', () => {
    const isBot = botMatcher(false);
    expect([CHROME, SAFARI_IPHONE].map(isBot)).toEqual([false, false]);
    for (const agent of [
      HEADLESS,
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 PTST/241119.12',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'curl/8.5.0',
      'python-requests/2.32.3',
      '',
      undefined,
    ]) {
      expect({ agent, bot: isBot(agent) }).toEqual({ agent, bot: true });
    }
  });

  it('accepts headless Chromium only when RUM_ACCEPT_HEADLESS is set, and nothing else with it', () => {
    const isBot = botMatcher(loadConfig({ RUM_ACCEPT_HEADLESS: '1' }, { keys: false }).ingest.acceptHeadless);
    expect(isBot(HEADLESS)).toBe(false);
    expect(isBot(`${HEADLESS} Chrome-Lighthouse`)).toBe(true);
    expect(botMatcher(loadConfig({}, { keys: false }).ingest.acceptHeadless)(HEADLESS)).toBe(true);
  });
});

describe('origin', () => {
  it('accepts the domain and its subdomains, nothing that only looks like them', () => {
    expect(hostMatchesDomain('example.com', 'example.com')).toBe(true);
    expect(hostMatchesDomain('shop.eu.example.com', 'example.com')).toBe(true);
    expect(hostMatchesDomain('EXAMPLE.com.', 'example.com')).toBe(true);
    expect(hostMatchesDomain('badexample.com', 'example.com')).toBe(false);
    expect(hostMatchesDomain('example.com.evil.net', 'example.com')).toBe(false);
    expect(hostMatchesDomain('example.com', 'www.example.com')).toBe(false);
  });

  it('reads Origin, or Referer when Origin is missing or null, and only http(s)', () => {
    expect(senderHost('https://shop.example.com', 'https://evil.test/')).toBe('shop.example.com');
    expect(senderHost(undefined, 'https://example.com/a?b=c')).toBe('example.com');
    expect(senderHost('null', 'https://example.com/')).toBe('example.com');
    expect(senderHost('null', undefined)).toBeNull();
    expect(senderHost('file://example.com', undefined)).toBeNull();
    expect(senderHost(undefined, 'not a url')).toBeNull();
  });
});

describe('ingest configuration', () => {
  it('has defaults per instance (spool directory and metrics port follow the ingest port) and validates', () => {
    const config = loadConfig({ INGEST_PORT: '4100' }, { keys: false }).ingest;
    expect(config).toMatchObject({
      spoolDir: resolve(PROJECT_ROOT, '.state', 'ingest-spool-4100'),
      metricsHost: '127.0.0.1',
      metricsPort: 4101,
      batch: { rows: 5000, ms: 1000 },
      spoolMaxBytes: 2048 * 1024 * 1024,
      spoolFsync: true,
      acceptHeadless: false,
      keepMonths: 13,
    });
    expect(loadConfig({ INGEST_SPOOL_DIR: '/var/spool/rum' }, { keys: false }).ingest.spoolDir).toBe('/var/spool/rum');
    expect(() => loadConfig({ INGEST_BATCH_ROWS: '0' }, { keys: false })).toThrow(ConfigError);
    expect(() => loadConfig({ RUM_KEEP_MONTHS: 'many' }, { keys: false })).toThrow(/RUM_KEEP_MONTHS/);
    expect(() => loadConfig({ RUM_ACCEPT_HEADLESS: 'maybe' }, { keys: false })).toThrow(/RUM_ACCEPT_HEADLESS/);
  });
});
