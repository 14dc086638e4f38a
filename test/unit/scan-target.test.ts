import { checkScanTarget, type HostLookup } from '../../infra/scan-target.ts';

/** A resolver that answers from a table, and fails like node:dns for anything else. */
const table =
  (answers: Record<string, string[] | { code: string }>): HostLookup =>
  async (host) => {
    const answer = answers[host];
    if (answer === undefined || !Array.isArray(answer))
      throw Object.assign(new Error(`getaddrinfo ${answer?.code ?? 'ENOTFOUND'} ${host}`), {
        code: answer?.code ?? 'ENOTFOUND',
      });
    return answer;
  };

const refuseLoopback = { allowLoopback: false };

describe('checkScanTarget: IP literals', () => {
  it.each(['10.1.2.3', '169.254.169.254', '0.0.0.0', '[::ffff:10.0.0.1]', '[fd00::1]', '127.0.0.1', '[::1]'])(
    'refuses %s without resolving anything',
    async (host) => {
      const asked: string[] = [];
      const lookup: HostLookup = async (name) => (asked.push(name), ['93.184.216.34']);
      expect(await checkScanTarget(host, { ...refuseLoopback, lookup })).toMatchObject({
        allowed: false,
        code: 'blocked_address',
        literal: true,
      });
      expect(asked).toEqual([]);
    },
  );

  it('allows a public literal, and loopback only when configured', async () => {
    expect(await checkScanTarget('93.184.216.34', refuseLoopback)).toEqual({
      allowed: true,
      addresses: ['93.184.216.34'],
    });
    expect(await checkScanTarget('[2606:4700::1]', refuseLoopback)).toEqual({
      allowed: true,
      addresses: ['2606:4700::1'],
    });
    expect(await checkScanTarget('127.0.0.1', { allowLoopback: true })).toEqual({
      allowed: true,
      addresses: ['127.0.0.1'],
    });
    expect(await checkScanTarget('[::1]', { allowLoopback: true })).toEqual({ allowed: true, addresses: ['::1'] });
    // Loopback permission never opens private ranges.
    expect(await checkScanTarget('10.0.0.1', { allowLoopback: true })).toMatchObject({
      allowed: false,
      code: 'blocked_address',
    });
  });

  it('judges literals even when names are not resolved (scan submission)', async () => {
    expect(await checkScanTarget('10.1.2.3', { ...refuseLoopback, resolveNames: false })).toMatchObject({
      allowed: false,
      code: 'blocked_address',
      literal: true,
    });
    expect(
      await checkScanTarget('intranet.example', { ...refuseLoopback, resolveNames: false, lookup: table({}) }),
    ).toEqual({ allowed: true, addresses: [] });
  });
});

describe('checkScanTarget: names', () => {
  it('allows a name whose every address is public, and returns those addresses', async () => {
    const lookup = table({ 'shop.example': ['93.184.216.34', '2606:4700::1'] });
    expect(await checkScanTarget('shop.example', { ...refuseLoopback, lookup })).toEqual({
      allowed: true,
      addresses: ['93.184.216.34', '2606:4700::1'],
    });
  });

  it('refuses a name with any private or special-use address (blocked_address, not a literal), naming it for the logs', async () => {
    const lookup = table({
      'mixed.example': ['93.184.216.34', '10.0.0.7'],
      'meta.example': ['169.254.169.254'],
      'local.example': ['127.0.0.1'],
    });
    expect(await checkScanTarget('mixed.example', { ...refuseLoopback, lookup })).toEqual({
      allowed: false,
      code: 'blocked_address',
      literal: false,
      reason: 'mixed.example resolves to 10.0.0.7, a private or special-use address',
    });
    expect(await checkScanTarget('meta.example', { allowLoopback: true, lookup })).toMatchObject({
      allowed: false,
      code: 'blocked_address',
      literal: false,
    });
    expect(await checkScanTarget('local.example', { ...refuseLoopback, lookup })).toMatchObject({
      allowed: false,
      code: 'blocked_address',
    });
    expect(await checkScanTarget('local.example', { allowLoopback: true, lookup })).toEqual({
      allowed: true,
      addresses: ['127.0.0.1'],
    });
  });

  it('the system resolver: localhost is loopback', async () => {
    expect(await checkScanTarget('localhost', refuseLoopback)).toMatchObject({
      allowed: false,
      code: 'blocked_address',
      literal: false,
    });
  });

  it('a name that does not exist is dns_failed for good; a resolver failure is dns_failed and temporary', async () => {
    const lookup = table({ 'flaky.example': { code: 'EAI_AGAIN' } });
    expect(await checkScanTarget('missing.example', { ...refuseLoopback, lookup })).toEqual({
      allowed: false,
      code: 'dns_failed',
      temporary: false,
      reason: 'The host name missing.example could not be resolved.',
    });
    expect(await checkScanTarget('flaky.example', { ...refuseLoopback, lookup })).toMatchObject({
      allowed: false,
      code: 'dns_failed',
      temporary: true,
    });
    expect(await checkScanTarget('empty.example', { ...refuseLoopback, lookup: async () => [] })).toMatchObject({
      allowed: false,
      code: 'dns_failed',
      temporary: false,
    });
  });
});
