// Webhook SSRF address policy (src/lib/address-policy.ts): special-purpose ranges at their boundaries, embedded IPv4, operator allow-lists and URL host literals.
import { describe, expect, test } from 'bun:test'
import { classifyAddress, isAddressAllowed, literalHostAddress } from '../../src/lib/address-policy.ts'
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

describe('classifyAddress: IPv4', () => {
  test.each([
    // 0.0.0.0/8 this network
    ['0.0.0.0', 'this network'],
    ['0.255.255.255', 'this network'],
    ['1.0.0.0', PUBLIC],
    // 10.0.0.0/8 private
    ['9.255.255.255', PUBLIC],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.0', PUBLIC],
    // 172.16.0.0/12 private
    ['172.15.255.255', PUBLIC],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', PUBLIC],
    // 192.168.0.0/16 private
    ['192.167.255.255', PUBLIC],
    ['192.168.0.0', 'private'],
    ['192.168.255.255', 'private'],
    ['192.169.0.0', PUBLIC],
    // 127.0.0.0/8 loopback
    ['126.255.255.255', PUBLIC],
    ['127.0.0.0', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.255', 'loopback'],
    ['128.0.0.0', PUBLIC],
    // 169.254.0.0/16 link-local (cloud metadata lives here)
    ['169.253.255.255', PUBLIC],
    ['169.254.0.0', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['169.254.255.255', 'link-local'],
    ['169.255.0.0', PUBLIC],
    // 100.64.0.0/10 carrier-grade NAT
    ['100.63.255.255', PUBLIC],
    ['100.64.0.0', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['100.128.0.0', PUBLIC],
    // 192.0.0.0/24 IETF protocol assignments
    ['191.255.255.255', PUBLIC],
    ['192.0.0.0', 'IETF protocol assignments'],
    ['192.0.0.255', 'IETF protocol assignments'],
    ['192.0.1.0', PUBLIC],
    // 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 documentation
    ['192.0.1.255', PUBLIC],
    ['192.0.2.0', 'documentation'],
    ['192.0.2.255', 'documentation'],
    ['192.0.3.0', PUBLIC],
    ['198.51.99.255', PUBLIC],
    ['198.51.100.0', 'documentation'],
    ['198.51.100.255', 'documentation'],
    ['198.51.101.0', PUBLIC],
    ['203.0.112.255', PUBLIC],
    ['203.0.113.0', 'documentation'],
    ['203.0.113.255', 'documentation'],
    ['203.0.114.0', PUBLIC],
    // 198.18.0.0/15 benchmarking
    ['198.17.255.255', PUBLIC],
    ['198.18.0.0', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.0', PUBLIC],
    // 224.0.0.0/4 multicast, 240.0.0.0/4 reserved, 255.255.255.255 broadcast
    ['223.255.255.255', PUBLIC],
    ['224.0.0.0', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.0', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // ordinary public addresses
    ['8.8.8.8', PUBLIC],
    ['1.1.1.1', PUBLIC],
  ])('%s → %p', (ip, reason) => expectClassified(ip, reason))
})

describe('classifyAddress: IPv6', () => {
  test.each([
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    // fc00::/7 unique local
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
    ['fc00::', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local'],
    ['fe00::', PUBLIC],
    // fe80::/10 link-local, fec0::/10 site-local
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
    ['fe80::', 'link-local'],
    ['FE80::1', 'link-local'],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
    ['fec0::', 'site-local'],
    ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local'],
    // ff00::/8 multicast
    ['ff00::', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    // 2001:db8::/32 documentation
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
    ['2001:db8::', 'documentation'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['2001:db9::', PUBLIC],
    // 100::/64 discard
    ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
    ['100::', 'discard'],
    ['100::ffff:ffff:ffff:ffff', 'discard'],
    ['100:0:0:1::', PUBLIC],
    // ordinary public addresses
    ['2606:4700:4700::1111', PUBLIC],
    ['2a00:1450:4001::1', PUBLIC],
  ])('%s → %p', (ip, reason) => expectClassified(ip, reason))
})

describe('classifyAddress: IPv6 that embeds IPv4 is judged by the IPv4', () => {
  test.each([
    // IPv4-mapped ::ffff:0:0/96, dotted or hex
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
    ['::FFFF:10.0.0.1', 'private (IPv4-mapped)'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local (IPv4-mapped)'],
    ['::ffff:0.0.0.0', 'this network (IPv4-mapped)'],
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
    ['64:ff9b::1:0:7f00:1', PUBLIC], // outside the /96, so not read as IPv4
    // NAT64 local-use prefix 64:ff9b:1::/48: where the IPv4 sits depends on the site, so never public
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64'],
    ['64:ff9b:2::808:808', PUBLIC],
    // 6to4 2002::/16, IPv4 in bytes 2–5
    ['2002:c0a8:0101::', 'private (6to4)'],
    ['2002:7f00:1::1', 'loopback (6to4)'],
    ['2002:a9fe:a9fe:1234::5', 'link-local (6to4)'],
    ['2002:0808:0808::', PUBLIC],
    ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', PUBLIC],
    ['2003::', PUBLIC],
    // Teredo 2001::/32: always refused
    ['2001::', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'teredo'],
    ['2001:1::', PUBLIC],
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
