// clientIp (src/http/client-ip.ts): the TCP peer, or the rightmost untrusted X-Forwarded-For hop when the peer is a trusted proxy.
import { describe, expect, test } from 'bun:test'
import { clientIp } from '../../src/http/client-ip.ts'
import { type Cidr, parseCidr } from '../../src/lib/cidr.ts'

function ranges(...texts: string[]): Cidr[] {
  return texts.map((text) => {
    const range = parseCidr(text)
    if (!range) throw new Error(`test setup: ${text} should parse`)
    return range
  })
}

/** Trusted-proxy lists by name, so the test titles stay readable. */
const TRUST = {
  NONE: ranges(),
  PRIVATE: ranges('10.0.0.0/8', '192.168.0.0/16'),
  V6: ranges('fd00::/8'),
  MIXED: ranges('10.0.0.0/8', 'fd00::/8', '::1'),
}
type Trust = keyof typeof TRUST
const NONE: Trust = 'NONE'
const PRIVATE: Trust = 'PRIVATE'
const V6: Trust = 'V6'
const MIXED: Trust = 'MIXED'

describe('without a peer', () => {
  test.each([
    [undefined, null],
    [undefined, '198.51.100.9'],
    ['', '198.51.100.9'],
  ] as [string | undefined, string | null][])('peer %p, X-Forwarded-For %p -> null', (peer, xff) => {
    expect(clientIp(peer, xff, TRUST.PRIVATE)).toBeNull()
  })
})

describe('the peer itself', () => {
  test.each([
    // peer, X-Forwarded-For, trusted, expected
    ['203.0.113.7', null, NONE, '203.0.113.7'],
    ['::ffff:1.2.3.4', null, NONE, '1.2.3.4'],
    ['::FFFF:1.2.3.4', null, NONE, '1.2.3.4'],
    ['0:0:0:0:0:ffff:1.2.3.4', null, NONE, '1.2.3.4'],
    ['::ffff:0102:0304', null, NONE, '1.2.3.4'],
    ['2001:db8::1', null, NONE, '2001:db8::1'],
    ['::1', null, NONE, '::1'],
    // a trusted peer without the header is the client
    ['10.0.0.1', null, PRIVATE, '10.0.0.1'],
    ['::ffff:10.0.0.1', null, PRIVATE, '10.0.0.1'],
  ] as [string, string | null, Trust, string][])('peer %p, X-Forwarded-For %p, trusting %s -> %p', (peer, xff, trusted, expected) => {
    expect(clientIp(peer, xff, TRUST[trusted])).toBe(expected)
  })
})

describe('X-Forwarded-For from an untrusted peer is ignored', () => {
  test.each([
    ['203.0.113.7', '198.51.100.9', NONE, '203.0.113.7'],
    ['203.0.113.7', '198.51.100.9', PRIVATE, '203.0.113.7'],
    ['203.0.113.7', '10.0.0.5', PRIVATE, '203.0.113.7'],
    ['::ffff:203.0.113.7', '198.51.100.9', PRIVATE, '203.0.113.7'],
    ['11.0.0.1', '198.51.100.9', PRIVATE, '11.0.0.1'],
    ['2001:db8::7', '198.51.100.9', V6, '2001:db8::7'],
    // 10.0.0.1 is a proxy only when the trusted list says so
    ['10.0.0.1', '198.51.100.9', NONE, '10.0.0.1'],
  ] as [string, string, Trust, string][])('peer %p, X-Forwarded-For %p, trusting %s -> %p', (peer, xff, trusted, expected) => {
    expect(clientIp(peer, xff, TRUST[trusted])).toBe(expected)
  })
})

describe('X-Forwarded-For from a trusted peer is honoured', () => {
  test.each([
    // one proxy
    ['10.0.0.1', '198.51.100.9', PRIVATE, '198.51.100.9'],
    ['::ffff:10.0.0.1', '198.51.100.9', PRIVATE, '198.51.100.9'],
    ['192.168.3.4', '198.51.100.9', PRIVATE, '198.51.100.9'],
    // a client cannot choose its address by sending its own header: the rightmost untrusted hop wins
    ['10.0.0.1', '6.6.6.6, 198.51.100.9', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '6.6.6.6,198.51.100.9', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '10.0.0.9, 6.6.6.6, 198.51.100.9', PRIVATE, '198.51.100.9'],
    // several trusted proxies in the chain are skipped
    ['10.0.0.1', '198.51.100.9, 10.0.0.2, 192.168.1.1', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '6.6.6.6, 198.51.100.9, 10.0.0.2, 10.0.0.3', PRIVATE, '198.51.100.9'],
    // every hop trusted: the leftmost one is the client
    ['10.0.0.1', '10.0.0.5, 10.0.0.6', PRIVATE, '10.0.0.5'],
    ['10.0.0.1', '192.168.9.9', PRIVATE, '192.168.9.9'],
    // an empty header or empty entries add nothing
    ['10.0.0.1', '', PRIVATE, '10.0.0.1'],
    ['10.0.0.1', ' , ', PRIVATE, '10.0.0.1'],
    ['10.0.0.1', ' 198.51.100.9 , ,', PRIVATE, '198.51.100.9'],
  ] as [string, string, Trust, string][])('peer %p, X-Forwarded-For %p, trusting %s -> %p', (peer, xff, trusted, expected) => {
    expect(clientIp(peer, xff, TRUST[trusted])).toBe(expected)
  })
})

describe('hops with a port, and hops that do not parse', () => {
  test.each([
    // ip:port and [v6]:port, as some proxies and load balancers write them: the port is dropped
    ['10.0.0.1', '1.2.3.4:5678', PRIVATE, '1.2.3.4'],
    ['10.0.0.1', '[2001:db8::1]:443', PRIVATE, '2001:db8::1'],
    ['10.0.0.1', '[2001:db8::1]', PRIVATE, '2001:db8::1'],
    ['10.0.0.1', '[2001:DB8:0::1]:443', PRIVATE, '2001:db8::1'],
    ['10.0.0.1', '[::ffff:198.51.100.9]:80', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '6.6.6.6, 198.51.100.9:1234', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '1.2.3.4:0', PRIVATE, '1.2.3.4'],
    ['10.0.0.1', '1.2.3.4:65535', PRIVATE, '1.2.3.4'],
    // a trusted hop with a port is still trusted, and skipped
    ['10.0.0.1', '198.51.100.9, 10.0.0.2:8080', PRIVATE, '198.51.100.9'],
    ['fd00::1', '2001:db8::42, [fd00::2]:8443', V6, '2001:db8::42'],
    // an unbracketed IPv6 address is the address, not an address and a port
    ['10.0.0.1', '2001:db8::1:443', PRIVATE, '2001:db8::1:443'],
    // a hop written by a trusted proxy that does not parse: the client is unknown (null), never the proxy
    ['10.0.0.1', 'garbage', PRIVATE, null],
    ['10.0.0.1', 'unknown', PRIVATE, null],
    ['10.0.0.1', '198.51.100.9, garbage', PRIVATE, null],
    ['10.0.0.1', '198.51.100.9, garbage, 10.0.0.2', PRIVATE, null],
    ['10.0.0.1', '198.51.100.9, 999.1.1.1, 10.0.0.2', PRIVATE, null],
    ['10.0.0.1', '198.51.100.9, fe80::1%eth0', PRIVATE, null],
    ['10.0.0.1', '1.2.3.4:99999', PRIVATE, null],
    ['10.0.0.1', '1.2.3.4:', PRIVATE, null],
    ['10.0.0.1', '1.2.3.4:port', PRIVATE, null],
    ['10.0.0.1', '[1.2.3.4', PRIVATE, null],
    ['10.0.0.1', '[2001:db8::1]:443:1', PRIVATE, null],
    ['10.0.0.1', '[garbage]:80', PRIVATE, null],
    ['10.0.0.1', '::ffff:10.0.0.5:80', PRIVATE, null],
    // garbage to the left of the client's hop is never reached
    ['10.0.0.1', 'garbage, 198.51.100.9', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', 'garbage, 198.51.100.9:4000, 10.0.0.2', PRIVATE, '198.51.100.9'],
  ] as [string, string, Trust, string | null][])('peer %p, X-Forwarded-For %p, trusting %s -> %p', (peer, xff, trusted, expected) => {
    expect(clientIp(peer, xff, TRUST[trusted])).toBe(expected)
  })
})

describe('IPv6', () => {
  test.each([
    // an IPv6 proxy forwarding an IPv6 client
    ['fd00::1', '2001:db8::42', V6, '2001:db8::42'],
    // an IPv6 proxy forwarding an IPv4 client
    ['fd00::1', '198.51.100.9', V6, '198.51.100.9'],
    // an IPv4 proxy forwarding an IPv6 client
    ['10.0.0.1', '2001:db8::42', PRIVATE, '2001:db8::42'],
    // IPv6 proxies in the chain are skipped; an IPv6 hop outside the range is the client
    ['fd00::1', '2001:db8::42, fd12:3456::1, fdff::2', V6, '2001:db8::42'],
    ['fd00::1', '2001:db8::1, 2001:db8::2', V6, '2001:db8::2'],
    ['fd00::1', 'fd00::5, fd00::6', V6, 'fd00::5'],
    // families mixed in one chain
    ['::1', '198.51.100.9, fd00::2, 10.0.0.3', MIXED, '198.51.100.9'],
    ['fd00::1', '2001:db8::42, 10.0.0.3', MIXED, '2001:db8::42'],
    // ::ffff: forms inside the header: trusted when their IPv4 is, and reported as plain IPv4
    ['10.0.0.1', '::ffff:198.51.100.9', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '::FFFF:198.51.100.9', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '198.51.100.9, ::ffff:10.0.0.2', PRIVATE, '198.51.100.9'],
    ['10.0.0.1', '::ffff:10.0.0.5, ::ffff:10.0.0.6', PRIVATE, '10.0.0.5'],
    ['::ffff:10.0.0.1', '6.6.6.6, ::ffff:198.51.100.9, ::ffff:10.0.0.2', PRIVATE, '198.51.100.9'],
    // an IPv6 proxy is not trusted by IPv4 ranges, nor an IPv4 peer by IPv6 ranges
    ['fd00::1', '198.51.100.9', PRIVATE, 'fd00::1'],
    ['10.0.0.1', '198.51.100.9', V6, '10.0.0.1'],
  ] as [string, string, Trust, string][])('peer %p, X-Forwarded-For %p, trusting %s -> %p', (peer, xff, trusted, expected) => {
    expect(clientIp(peer, xff, TRUST[trusted])).toBe(expected)
  })

  test('a bare address trusts that one host only', () => {
    const loopback = ranges('127.0.0.1')
    expect(clientIp('127.0.0.1', '198.51.100.9', loopback)).toBe('198.51.100.9')
    expect(clientIp('::ffff:127.0.0.1', '198.51.100.9', loopback)).toBe('198.51.100.9')
    expect(clientIp('127.0.0.2', '198.51.100.9', loopback)).toBe('127.0.0.2')
    const v6loopback = ranges('::1')
    expect(clientIp('::1', '2001:db8::42', v6loopback)).toBe('2001:db8::42')
    expect(clientIp('::2', '2001:db8::42', v6loopback)).toBe('::2')
  })
})
