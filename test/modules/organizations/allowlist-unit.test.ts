// allowlist.ts on its own: which entries parse, how an address is matched (fail closed, IPv4-mapped as IPv4), and the once-a-minute denial throttle per organization and address.
import { describe, expect, test } from 'bun:test'
import { Allowlists, ipAllowed, parseAllowlist } from '../../../src/modules/organizations/allowlist.ts'

const ranges = (...entries: string[]) => {
  const { ranges, invalid } = parseAllowlist(entries)
  expect(invalid).toEqual([])
  return ranges
}

describe('parseAllowlist', () => {
  test('splits good entries from bad ones, keeping the bad ones as written', () => {
    const { ranges: good, invalid } = parseAllowlist([
      '10.0.0.0/8',
      'bad',
      '::1',
      ' 1.2.3.4',
      '2001:db8::/32',
      '1.2.3.4/33',
      'x'.repeat(65),
    ])
    expect(good.map((r) => r.text)).toEqual(['10.0.0.0/8', '::1', '2001:db8::/32'])
    expect(invalid).toEqual(['bad', ' 1.2.3.4', '1.2.3.4/33', 'x'.repeat(65)])
  })
})

describe('ipAllowed', () => {
  test.each([
    // list, address, allowed
    [[], '203.0.113.1', true],
    [[], null, true],
    [['10.0.0.0/8'], null, false],
    [['0.0.0.0/0', '::/0'], null, false],
    [['10.0.0.0/8'], '10.255.255.255', true],
    [['10.0.0.0/8'], '11.0.0.0', false],
    [['10.0.0.0/8'], '::ffff:10.1.2.3', true],
    [['::ffff:10.0.0.0/104'], '10.1.2.3', true],
    [['127.0.0.1'], '127.0.0.1', true],
    [['127.0.0.1'], '127.0.0.2', false],
    [['127.0.0.1/32'], '::ffff:127.0.0.1', true],
    [['::1'], '::1', true],
    [['::1'], '0:0:0:0:0:0:0:1', true],
    [['::1'], '127.0.0.1', false],
    [['2001:db8::/32'], '2001:db8:ffff::1', true],
    [['2001:db8::/32'], '2001:db9::1', false],
    [['10.0.0.0/8'], 'not an address', false],
    [['0.0.0.0/0'], '2001:db8::1', false],
  ] as [string[], string | null, boolean][])('%p allows %p: %p', (list, ip, allowed) => {
    expect(ipAllowed(ranges(...list), ip)).toBe(allowed)
  })
})

describe('Allowlists', () => {
  test('ranges() parses the stored JSON text, and the same text gives the same parsed list', () => {
    const lists = new Allowlists()
    expect(lists.ranges('[]')).toEqual([])
    const first = lists.ranges('["10.0.0.0/8","::1"]')
    expect(first.map((r) => r.text)).toEqual(['10.0.0.0/8', '::1'])
    expect(lists.ranges('["10.0.0.0/8","::1"]')).toBe(first)
  })

  test('denialDue: once a minute per organization and address', () => {
    const lists = new Allowlists()
    const t = 1_000_000
    expect(lists.denialDue('org_a', '203.0.113.1', t)).toBe(true)
    expect(lists.denialDue('org_a', '203.0.113.1', t + 1)).toBe(false)
    expect(lists.denialDue('org_a', '203.0.113.1', t + 59_999)).toBe(false)
    // Another address, another organization, an unknown address: each its own.
    expect(lists.denialDue('org_a', '203.0.113.2', t + 1)).toBe(true)
    expect(lists.denialDue('org_b', '203.0.113.1', t + 1)).toBe(true)
    expect(lists.denialDue('org_a', null, t + 1)).toBe(true)
    expect(lists.denialDue('org_a', null, t + 2)).toBe(false)
    // A minute after the recorded one.
    expect(lists.denialDue('org_a', '203.0.113.1', t + 60_000)).toBe(true)
    expect(lists.denialDue('org_a', '203.0.113.1', t + 60_001)).toBe(false)
  })
})
