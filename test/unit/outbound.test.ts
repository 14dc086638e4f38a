import { isIP } from 'node:net';
import { classifyAddress, SPECIAL_RANGES, specialRangeOf, type SpecialRange } from '../../core/outbound.ts';

/** Address arithmetic for the boundary tests: an address as a number, and back. */
function toNumber(ip: string): bigint {
  if (isIP(ip) === 4) return ip.split('.').reduce((n, octet) => (n << 8n) | BigInt(octet), 0n);
  const [head = '', tail] = ip.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail ?? '').length;
  const all = [...groups(head), ...(tail === undefined ? [] : Array<string>(missing).fill('0')), ...groups(tail ?? '')];
  return all.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function fromNumber(n: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 255n)).join('.');
  return Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
}

function bounds(range: SpecialRange) {
  const [network, bits] = range.cidr.split('/') as [string, string];
  const family = isIP(network) as 4 | 6;
  const width = family === 4 ? 32n : 128n;
  const size = 1n << (width - BigInt(bits));
  const first = toNumber(network);
  const last = first + size - 1n;
  const max = (1n << width) - 1n;
  return {
    first: fromNumber(first, family),
    last: fromNumber(last, family),
    before: first > 0n ? fromNumber(first - 1n, family) : null,
    after: last < max ? fromNumber(last + 1n, family) : null,
  };
}

const within = (inner: SpecialRange, outer: SpecialRange) => {
  const [a, b] = [bounds(inner), bounds(outer)];
  return (
    isIP(a.first) === isIP(b.first) && toNumber(a.first) >= toNumber(b.first) && toNumber(a.last) <= toNumber(b.last)
  );
};

const expectedVerdict = (range: SpecialRange, address: string) =>
  range.kind === 'loopback'
    ? 'loopback'
    : range.kind === 'embedded-ipv4'
      ? classifyAddress(fromNumber(toNumber(address) & 0xffffffffn, 4))
      : 'private';

describe('the special-purpose address table', () => {
  it('names every range and its RFC', () => {
    for (const range of SPECIAL_RANGES) {
      expect(range.name.length).toBeGreaterThanOrEqual(3);
      expect(range.rfc).toMatch(/^RFC \d{3,4}$/);
    }
  });

  it.each(SPECIAL_RANGES.map((range) => [range.cidr, range] as const))(
    '%s: its first and last address are refused, the addresses just outside are not in it',
    (_cidr, range) => {
      const { first, last, before, after } = bounds(range);
      for (const inside of [first, last]) {
        // Either this row, or a narrower row inside it listed first (255.255.255.255/32 within 240.0.0.0/4).
        const owner = specialRangeOf(inside)!;
        expect({ inside, row: owner?.cidr }).toEqual({
          inside,
          row: owner === range || within(owner, range) ? owner.cidr : range.cidr,
        });
        expect({ inside, verdict: classifyAddress(inside) }).toEqual({
          inside,
          verdict: expectedVerdict(owner, inside),
        });
      }
      if (range.kind === 'embedded-ipv4')
        expect(classifyAddress(fromNumber(toNumber(first) | toNumber('8.8.8.8'), 6))).toBe('public');
      else expect(['private', 'loopback']).toContain(classifyAddress(first));
      // Just outside: public, unless it is another row of the table (the ranges there sit side by side).
      const outside = [before, after].filter((address): address is string => address !== null);
      expect(outside.length).toBeGreaterThan(0);
      for (const address of outside) {
        const row = specialRangeOf(address);
        expect({ address, row: row?.cidr }).not.toEqual({ address, row: range.cidr });
        if (!row) expect({ address, verdict: classifyAddress(address) }).toEqual({ address, verdict: 'public' });
      }
      // At least one neighbour is an ordinary address, except where the registry's ranges fill the space around.
      const packed = ['240.0.0.0/4', '255.255.255.255/32', '::1/128', 'fec0::/10', 'ff00::/8'];
      if (!packed.includes(range.cidr))
        expect(outside.some((address) => classifyAddress(address) === 'public')).toBe(true);
    },
  );
});

describe('outbound address policy', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['255.255.255.255', 'private'],
    ['fd00::1', 'private'],
    ['fe80::1', 'private'],
    ['fec0::1', 'private'],
    ['2606:4700::1111', 'public'],
    ['[2606:4700::1111]', 'public'],
    ['::', 'private'],
    ['::7f00:1', 'private'],
    ['::a00:1', 'private'],
    ['::8.8.8.8', 'private'],
    // IPv4-mapped: judged by the IPv4 address inside, in either notation.
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::ffff:169.254.169.254', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:808:808', 'public'],
    // IPv4-translated, NAT64 and 6to4 prefixes are refused whatever they embed.
    ['::ffff:0:808:808', 'private'],
    ['64:ff9b::808:808', 'private'],
    ['2002:808:808::1', 'private'],
    ['2001:4:112::1', 'private'],
    ['2001:20::1', 'private'],
    ['2001:1::1', 'private'],
    ['3fff::1', 'private'],
    ['5f00::1', 'private'],
    ['not-an-ip', 'private'],
  ])('%s is %s', (address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
  });
});
