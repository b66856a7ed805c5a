// Webhook SSRF address policy (src/lib/address-policy.ts): every range of IANA's two special-purpose
// registries at its boundaries, embedded IPv4, operator allow-lists and URL host literals.
import { describe, expect, test } from 'bun:test'
import {
  classifyAddress,
  IPV4_SPECIAL_PURPOSE,
  IPV6_SPECIAL_PURPOSE,
  isAddressAllowed,
  literalHostAddress,
} from '../../src/lib/address-policy.ts'
import { type Cidr, parseCidr } from '../../src/lib/cidr.ts'

const PUBLIC = null

function ranges(texts: readonly string[]): Cidr[] {
  return texts.map((text) => {
    const parsed = parseCidr(text)
    if (!parsed) throw new Error(`test setup: ${text} should parse`)
    return parsed
  })
}

/** `null` means public; a string is the exact reason expected for a non-public address. */
function expectClassified(ip: string, reason: string | null): void {
  expect(classifyAddress(ip)).toEqual(reason === null ? { public: true } : { public: false, reason })
}

// One case per range of IANA's special-purpose registries (and multicast, broadcast, site-local):
// [range, an address inside, the expected reason, an address just outside and what it is]. Written
// out by hand from the registries, not derived from the table under test.
type RangeCase = readonly [range: string, inside: string, reason: string, outside: string | null, outsideReason: string | null]

const IPV4_CASES: readonly RangeCase[] = [
  ['0.0.0.0/32', '0.0.0.0', 'this host', '0.0.0.1', 'this network'],
  ['0.0.0.0/8', '0.255.255.255', 'this network', '1.0.0.0', PUBLIC],
  ['10.0.0.0/8', '10.255.255.255', 'private', '11.0.0.0', PUBLIC],
  ['100.64.0.0/10', '100.127.255.255', 'carrier-grade NAT', '100.128.0.0', PUBLIC],
  ['127.0.0.0/8', '127.0.0.1', 'loopback', '128.0.0.0', PUBLIC],
  ['169.254.0.0/16', '169.254.169.254', 'link-local', '169.255.0.0', PUBLIC],
  ['172.16.0.0/12', '172.31.255.255', 'private', '172.32.0.0', PUBLIC],
  ['192.0.0.0/29', '192.0.0.7', 'IPv4 service continuity', '192.0.0.11', 'IETF protocol assignments'],
  ['192.0.0.8/32', '192.0.0.8', 'IPv4 dummy address', '192.0.0.11', 'IETF protocol assignments'],
  ['192.0.0.9/32', '192.0.0.9', 'PCP anycast', '192.0.0.11', 'IETF protocol assignments'],
  ['192.0.0.10/32', '192.0.0.10', 'TURN anycast', '192.0.0.11', 'IETF protocol assignments'],
  ['192.0.0.170/32', '192.0.0.170', 'NAT64/DNS64 discovery', '192.0.0.169', 'IETF protocol assignments'],
  ['192.0.0.171/32', '192.0.0.171', 'NAT64/DNS64 discovery', '192.0.0.172', 'IETF protocol assignments'],
  ['192.0.0.0/24', '192.0.0.255', 'IETF protocol assignments', '192.0.1.0', PUBLIC],
  ['192.0.2.0/24', '192.0.2.255', 'documentation', '192.0.3.0', PUBLIC],
  ['192.31.196.0/24', '192.31.196.1', 'AS112', '192.31.197.0', PUBLIC],
  ['192.52.193.0/24', '192.52.193.255', 'AMT', '192.52.192.255', PUBLIC],
  ['192.88.99.0/24', '192.88.99.1', '6to4 relay anycast', '192.88.100.0', PUBLIC],
  ['192.168.0.0/16', '192.168.255.255', 'private', '192.169.0.0', PUBLIC],
  ['192.175.48.0/24', '192.175.48.6', 'AS112', '192.175.49.0', PUBLIC],
  ['198.18.0.0/15', '198.19.255.255', 'benchmarking', '198.20.0.0', PUBLIC],
  ['198.51.100.0/24', '198.51.100.0', 'documentation', '198.51.99.255', PUBLIC],
  ['203.0.113.0/24', '203.0.113.255', 'documentation', '203.0.114.0', PUBLIC],
  ['224.0.0.0/4', '224.0.0.0', 'multicast', '223.255.255.255', PUBLIC],
  ['255.255.255.255/32', '255.255.255.255', 'broadcast', '255.255.255.254', 'reserved'],
  ['240.0.0.0/4', '240.0.0.0', 'reserved', '239.255.255.255', 'multicast'],
]

const IPV6_CASES: readonly RangeCase[] = [
  ['::/128', '::', 'unspecified', '::3', 'this network (IPv4-compatible)'],
  ['::1/128', '0:0:0:0:0:0:0:1', 'loopback', '::3', 'this network (IPv4-compatible)'],
  ['64:ff9b:1::/48', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64', '64:ff9b:2::808:808', 'reserved by the IETF'],
  ['100::/64', '100::ffff:ffff:ffff:ffff', 'discard', '100:0:0:2::', 'reserved by the IETF'],
  ['100:0:0:1::/64', '100:0:0:1:ffff:ffff:ffff:ffff', 'dummy prefix', '100:0:0:2::', 'reserved by the IETF'],
  ['2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo', '2001:1::4', 'IETF protocol assignments'],
  ['2001:1::1/128', '2001:1::1', 'PCP anycast', '2001:1::4', 'IETF protocol assignments'],
  ['2001:1::2/128', '2001:1::2', 'TURN anycast', '2001:1::4', 'IETF protocol assignments'],
  ['2001:1::3/128', '2001:1::3', 'DNS-SD SRP anycast', '2001:1::4', 'IETF protocol assignments'],
  ['2001:2::/48', '2001:2:0:ffff::1', 'benchmarking', '2001:2:1::', 'IETF protocol assignments'],
  ['2001:3::/32', '2001:3:ffff::1', 'AMT', '2001:4::', 'IETF protocol assignments'],
  ['2001:4:112::/48', '2001:4:112::1', 'AS112', '2001:4:113::', 'IETF protocol assignments'],
  ['2001:10::/28', '2001:1f::1', 'ORCHID', '2001:f::1', 'IETF protocol assignments'],
  ['2001:20::/28', '2001:20::1', 'ORCHIDv2', '2001:40::', 'IETF protocol assignments'],
  ['2001:30::/28', '2001:3f:ffff::1', 'drone remote ID', '2001:40::', 'IETF protocol assignments'],
  ['2001::/23', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'IETF protocol assignments', '2001:200::', PUBLIC],
  ['2001:db8::/32', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation', '2001:db9::', PUBLIC],
  ['2620:4f:8000::/48', '2620:4f:8000::42', 'AS112', '2620:4f:8001::', PUBLIC],
  ['3fff::/20', '3fff:fff:ffff::1', 'documentation', '3fff:1000::', PUBLIC],
  ['5f00::/16', '5f00::1', 'SRv6 SIDs', '5f01::', 'reserved by the IETF'],
  ['fc00::/7', 'fd12:3456:789a::1', 'unique local', 'fe00::', 'reserved by the IETF'],
  ['fe80::/10', 'FE80::1', 'link-local', 'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved by the IETF'],
  ['fec0::/10', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
  ['ff00::/8', 'ff02::1', 'multicast', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local'],
]

describe('classifyAddress: every IPv4 special-purpose range', () => {
  test.each(IPV4_CASES)('%s: %s is %p, %p is %p', (_range, inside, reason, outside, outsideReason) => {
    expectClassified(inside, reason)
    // The same address written as IPv4-mapped IPv6 is refused for the same reason.
    expectClassified(`::ffff:${inside}`, `${reason} (IPv4-mapped)`)
    if (outside !== null) expectClassified(outside, outsideReason)
  })

  test('the table lists exactly these ranges, each with its source', () => {
    expect(IPV4_SPECIAL_PURPOSE.map((r) => r.cidr.text)).toEqual(IPV4_CASES.map((c) => c[0]))
    for (const r of IPV4_SPECIAL_PURPOSE) expect(r.source).toMatch(/RFC \d+/)
  })

  test.each([['8.8.8.8'], ['1.1.1.1'], ['192.31.195.255'], ['192.175.47.255'], ['223.255.255.255']])('%s is public', (ip) =>
    expectClassified(ip, PUBLIC),
  )
})

describe('classifyAddress: every IPv6 special-purpose range', () => {
  test.each(IPV6_CASES)('%s: %s is %p, %p is %p', (_range, inside, reason, outside, outsideReason) => {
    expectClassified(inside, reason)
    if (outside !== null) expectClassified(outside, outsideReason)
  })

  test('the table lists exactly these ranges and the IPv4-carrying forms, each with its source', () => {
    const carrying = ['::/96', '64:ff9b::/96', '2002::/16']
    expect(IPV6_SPECIAL_PURPOSE.map((r) => r.cidr.text)).toEqual([...IPV6_CASES.map((c) => c[0]), ...carrying])
    for (const r of IPV6_SPECIAL_PURPOSE) expect(r.source).toMatch(/RFC \d+/)
  })

  test.each([
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::', 'unique local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local'],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
    ['fec0::', 'site-local'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    ['2001:db8::', 'documentation'],
    ['3fff::', 'documentation'],
    ['2001:10::', 'ORCHID'],
    ['2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', 'ORCHIDv2'],
    // Outside 2000::/3 nothing is allocated for global unicast.
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved by the IETF'],
    ['4000::1', 'reserved by the IETF'],
    ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved by the IETF'],
    // ordinary public addresses, and the edges of 2000::/3
    ['2000::', PUBLIC],
    ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
    ['3ffe::1', PUBLIC],
    ['2606:4700:4700::1111', PUBLIC],
    ['2a00:1450:4001::1', PUBLIC],
    ['2001:200::1', PUBLIC],
    ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
  ])('%s → %p', (ip, reason) => expectClassified(ip, reason))
})

describe('classifyAddress: IPv6 that embeds IPv4 is judged by the IPv4', () => {
  test.each([
    // IPv4-mapped ::ffff:0:0/96, dotted or hex
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
    ['::FFFF:10.0.0.1', 'private (IPv4-mapped)'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local (IPv4-mapped)'],
    ['::ffff:0.0.0.0', 'this host (IPv4-mapped)'],
    ['::ffff:255.255.255.255', 'broadcast (IPv4-mapped)'],
    ['::ffff:8.8.8.8', PUBLIC],
    // IPv4-compatible ::/96 (deprecated), past :: and ::1
    ['::127.0.0.1', 'loopback (IPv4-compatible)'],
    ['::a00:1', 'private (IPv4-compatible)'],
    ['::2', 'this network (IPv4-compatible)'],
    ['::8.8.8.8', PUBLIC],
    // NAT64 well-known prefix 64:ff9b::/96
    ['64:ff9b::a00:1', 'private (NAT64)'],
    ['64:ff9b::127.0.0.1', 'loopback (NAT64)'],
    ['64:ff9b::c0a8:101', 'private (NAT64)'],
    ['64:ff9b::808:808', PUBLIC],
    ['64:ff9b::1:0:7f00:1', 'reserved by the IETF'], // outside the /96, so not read as IPv4
    // NAT64 local-use prefix 64:ff9b:1::/48: where the IPv4 sits depends on the site, so never public
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64'],
    ['64:ff9b:2::808:808', 'reserved by the IETF'],
    // 6to4 2002::/16, IPv4 in bytes 2–5
    ['2002:c0a8:0101::', 'private (6to4)'],
    ['2002:7f00:1::1', 'loopback (6to4)'],
    ['2002:a9fe:a9fe:1234::5', 'link-local (6to4)'],
    ['2002:0808:0808::', PUBLIC],
    ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
    ['2002:c000:0201::', 'documentation (6to4)'],
    ['2002:c01f:c401::', 'AS112 (6to4)'],
    ['2003::', PUBLIC],
    // Teredo 2001::/32: always refused
    ['2001::', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'teredo'],
    ['2001:1::', 'IETF protocol assignments'],
  ])('%s → %p', (ip, reason) => expectClassified(ip, reason))
})

describe('classifyAddress: not an IP address', () => {
  test.each([
    '',
    'localhost',
    'example.com',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '127.1',
    '0x7f.0.0.1',
    '0127.0.0.1',
    '2130706433',
    ' 127.0.0.1',
    '127.0.0.1 ',
    '10.0.0.0/8',
    'fe80::1%eth0',
    '::ffff:127.0.0.1%lo',
    '1::2::3',
    ':::',
    'gggg::1',
    '1:2:3:4:5:6:7:8:9',
    '[127.0.0.1',
    'http://127.0.0.1/',
  ])('%p', (text) => expectClassified(text, 'not an IP address'))
})

describe('isAddressAllowed', () => {
  test.each([
    // public needs no allow-list
    ['8.8.8.8', [], null],
    ['2606:4700:4700::1111', [], null],
    ['::ffff:1.1.1.1', [], null],
    // non-public without a matching range is refused with the classification's reason
    ['127.0.0.1', [], 'loopback'],
    ['::1', [], 'loopback'],
    ['::ffff:192.168.1.1', [], 'private (IPv4-mapped)'],
    ['169.254.169.254', [], 'link-local'],
    // an operator range opens exactly that range, in both IPv4 spellings
    ['127.0.0.1', ['127.0.0.0/8'], null],
    ['127.255.255.255', ['127.0.0.0/8'], null],
    ['::ffff:127.0.0.1', ['127.0.0.0/8'], null],
    ['::ffff:7f00:1', ['127.0.0.0/8'], null],
    ['::1', ['127.0.0.0/8'], 'loopback'],
    ['10.1.2.3', ['10.0.0.0/8'], null],
    ['192.168.1.1', ['10.0.0.0/8'], 'private'],
    ['10.1.2.255', ['10.1.2.0/24'], null],
    ['10.1.3.0', ['10.1.2.0/24'], 'private'],
    ['10.1.2.3', ['192.168.0.0/16', '10.0.0.0/8'], null],
    ['::1', ['::1'], null],
    ['fd00::1', ['fd00::/8'], null],
    ['fd00::1', ['fc00::/8'], 'unique local'],
    // ranges match the address itself, not an IPv4 embedded in a translation prefix
    ['64:ff9b::a00:1', ['10.0.0.0/8'], 'private (NAT64)'],
    // text that is no address is refused even by an allow-everything list
    ['localhost', ['0.0.0.0/0', '::/0'], 'not an IP address'],
  ] as const)('%s with %p → %p', (ip, allowed, reason) => {
    expect(isAddressAllowed(ip, ranges(allowed))).toEqual(reason === null ? { ok: true } : { ok: false, reason })
  })
})

describe('literalHostAddress', () => {
  test.each([
    // WHATWG URL canonicalises IPv4 spellings before we see them
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.0.0.1.:8080/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    // IPv6 comes bracketed and compressed
    ['http://[::1]:8080/', '::1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
    ['http://[::ffff:10.0.0.1]/', '::ffff:a00:1'],
    ['http://[64:ff9b::10.0.0.1]/', '64:ff9b::a00:1'],
    // names are left for DNS resolution
    ['http://example.com/', undefined],
    ['http://localhost/', undefined],
    ['http://10.0.0.1.nip.io/', undefined],
  ])('new URL(%p).hostname → %p', (url, expected) => {
    expect(literalHostAddress(new URL(url).hostname)).toBe(expected)
  })

  test.each([
    ['[::ffff:10.0.0.1]', '::ffff:10.0.0.1'],
    ['[fe80::1]', 'fe80::1'],
    ['10.0.0.1', '10.0.0.1'],
    ['::1', '::1'], // not a valid hostname, but still an address literal
    ['[127.0.0.1]', undefined], // brackets hold only IPv6
    ['[]', undefined],
    ['[example.com]', undefined],
    ['[::1', undefined],
    ['', undefined],
    ['example.com', undefined],
  ])('%p → %p', (hostname, expected) => {
    expect(literalHostAddress(hostname)).toBe(expected)
  })

  test.each([
    ['http://0x7f.1/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[::ffff:127.0.0.1]/', 'loopback (IPv4-mapped)'],
    ['http://[::ffff:10.0.0.1]/', 'private (IPv4-mapped)'],
    ['http://[fd00:ec2::254]/', 'unique local'],
    ['http://[64:ff9b::7f00:1]/', 'loopback (NAT64)'],
  ])('%s is refused as %p once its literal is classified', (url, reason) => {
    const ip = literalHostAddress(new URL(url).hostname)
    expect(ip).toBeDefined()
    expect(classifyAddress(ip!)).toEqual({ public: false, reason })
  })

  test('[::ffff:10.0.0.1] as a hostname classifies as private (IPv4-mapped)', () => {
    expect(classifyAddress(literalHostAddress('[::ffff:10.0.0.1]') ?? '')).toEqual({
      public: false,
      reason: 'private (IPv4-mapped)',
    })
  })
})
