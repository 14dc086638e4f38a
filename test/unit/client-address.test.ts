import { clientAddressResolver } from '../../http/client-address.ts';

describe('client address behind trusted proxies', () => {
  it('trusts no X-Forwarded-For without configured proxies', () => {
    const resolve = clientAddressResolver([]);
    expect(resolve('203.0.113.5', '1.2.3.4')).toBe('203.0.113.5');
    expect(resolve('::ffff:203.0.113.5', '')).toBe('203.0.113.5');
  });

  it('walks right to left through trusted hops only, whatever the client wrote on the left', () => {
    const resolve = clientAddressResolver(['10.0.0.0/8', '127.0.0.1/32', 'fd00::/8']);
    expect(resolve('127.0.0.1', '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(resolve('::ffff:127.0.0.1', '6.6.6.6, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
    expect(resolve('fd00::1', '2001:db8::7')).toBe('2001:db8::7');
    // A peer we do not trust: its header is ignored.
    expect(resolve('198.51.100.1', '10.0.0.1, 127.0.0.1')).toBe('198.51.100.1');
    // All hops trusted: the left-most trusted one is as far as we can see.
    expect(resolve('127.0.0.1', '10.0.0.2,10.0.0.3')).toBe('10.0.0.2');
    // No header, or nonsense from a trusted proxy: the last address we can vouch for.
    expect(resolve('127.0.0.1', '')).toBe('127.0.0.1');
    expect(resolve('127.0.0.1', 'unknown')).toBe('127.0.0.1');
    expect(resolve('127.0.0.1', '203.0.113.9, 10.0.0.9:443')).toBe('127.0.0.1');
  });
});
