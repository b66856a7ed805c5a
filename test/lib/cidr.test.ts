// IP and CIDR helpers (src/lib/cidr.ts): parsing IPv4/IPv6 text, range membership across prefix boundaries, and IPv4-mapped normalisation.
import { describe, expect, test } from 'bun:test'
import { type Cidr, cidrContains, normalizeIp, parseCidr, parseIp } from '../../src/lib/cidr.ts'

/** Expected 16 bytes written out by hand as 32 hex digits (spaces allowed for readability). */
const hex = (digits: string): Uint8Array => Uint8Array.from(Buffer.from(digits.replace(/ /g, ''), 'hex'))

function range(text: string): Cidr {
  const parsed = parseCidr(text)
  if (!parsed) throw new Error(`test setup: ${text} should parse`)
  return parsed
}

describe('parseIp', () => {
  test.each([
    // IPv4 is stored as ::ffff:a.b.c.d
    ['10.1.2.3', '0000 0000 0000 0000 0000 ffff 0a01 0203'],
    ['0.0.0.0', '0000 0000 0000 0000 0000 ffff 0000 0000'],
    ['255.255.255.255', '0000 0000 0000 0000 0000 ffff ffff ffff'],
    ['192.168.1.4', '0000 0000 0000 0000 0000 ffff c0a8 0104'],
    // IPv6, full and compressed
    ['2001:0db8:0000:0000:0000:ff00:0042:8329', '2001 0db8 0000 0000 0000 ff00 0042 8329'],
    ['2001:db8::ff00:42:8329', '2001 0db8 0000 0000 0000 ff00 0042 8329'],
    ['2001:DB8::FF00:42:8329', '2001 0db8 0000 0000 0000 ff00 0042 8329'],
    ['1:2:3:4:5:6:7:8', '0001 0002 0003 0004 0005 0006 0007 0008'],
    ['::1', '0000 0000 0000 0000 0000 0000 0000 0001'],
    ['::', '0000 0000 0000 0000 0000 0000 0000 0000'],
    ['1::', '0001 0000 0000 0000 0000 0000 0000 0000'],
    ['1:2:3:4:5:6:7::', '0001 0002 0003 0004 0005 0006 0007 0000'],
    ['fe80::1:2', 'fe80 0000 0000 0000 0000 0000 0001 0002'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffff ffff ffff ffff ffff ffff ffff ffff'],
    // embedded dotted IPv4
    ['::ffff:10.1.2.3', '0000 0000 0000 0000 0000 ffff 0a01 0203'],
    ['::FFFF:10.1.2.3', '0000 0000 0000 0000 0000 ffff 0a01 0203'],
    ['0:0:0:0:0:ffff:10.1.2.3', '0000 0000 0000 0000 0000 ffff 0a01 0203'],
    ['64:ff9b::1.2.3.4', '0064 ff9b 0000 0000 0000 0000 0102 0304'],
    ['::1.2.3.4', '0000 0000 0000 0000 0000 0000 0102 0304'],
    ['::ffff:0:1.2.3.4', '0000 0000 0000 0000 ffff 0000 0102 0304'],
    // bracketed
    ['[::1]', '0000 0000 0000 0000 0000 0000 0000 0001'],
    ['[2001:db8::1]', '2001 0db8 0000 0000 0000 0000 0000 0001'],
    ['[::ffff:10.1.2.3]', '0000 0000 0000 0000 0000 ffff 0a01 0203'],
  ])('%s', (text, expected) => {
    expect(parseIp(text)).toEqual(hex(expected))
  })

  test('an IPv4 address and its ::ffff: form give the same bytes', () => {
    expect(parseIp('172.16.5.9')).toEqual(parseIp('::ffff:172.16.5.9'))
    expect(parseIp('172.16.5.9')).toEqual(parseIp('::ffff:ac10:509'))
  })

  test('returns 16 bytes', () => {
    expect(parseIp('1.2.3.4')).toHaveLength(16)
    expect(parseIp('::1')).toHaveLength(16)
  })

  test.each([['fe80::1%eth0'], ['fe80::1%1'], ['[fe80::1%eth0]'], ['::ffff:10.1.2.3%eth0']])('rejects zone id %s', (text) => {
    expect(parseIp(text)).toBeUndefined()
  })

  test.each([
    [''],
    ['abc'],
    ['1.2.3'],
    ['1.2.3.4.5'],
    ['256.1.1.1'],
    ['1.2.3.256'],
    ['-1.2.3.4'],
    ['01.2.3.4'],
    [' 1.2.3.4'],
    ['1.2.3.4 '],
    ['10.0.0.0/8'],
    ['::/0'],
    ['1::2::3'],
    [':::'],
    ['1:2:3:4:5:6:7:8:9'],
    ['1:2:3:4:5:6:7'],
    ['12345::'],
    ['g::1'],
    ['::ffff:1.2.3'],
    ['::ffff:256.1.2.3'],
    ['1:2:3:4:5:6:7:1.2.3.4'],
    ['[::1'],
    ['::1]'],
    ['[]'],
  ])('rejects %p', (text) => {
    expect(parseIp(text)).toBeUndefined()
  })
})

describe('parseCidr', () => {
  test.each([
    // IPv4 prefixes are counted over the 128-bit mapped form: /n becomes 96 + n.
    ['10.0.0.0/8', '0000 0000 0000 0000 0000 ffff 0a00 0000', 104],
    ['0.0.0.0/0', '0000 0000 0000 0000 0000 ffff 0000 0000', 96],
    ['192.168.1.4/32', '0000 0000 0000 0000 0000 ffff c0a8 0104', 128],
    ['192.168.1.4', '0000 0000 0000 0000 0000 ffff c0a8 0104', 128],
    ['2001:db8::/32', '2001 0db8 0000 0000 0000 0000 0000 0000', 32],
    ['::/0', '0000 0000 0000 0000 0000 0000 0000 0000', 0],
    ['::1', '0000 0000 0000 0000 0000 0000 0000 0001', 128],
    ['2001:db8::1/128', '2001 0db8 0000 0000 0000 0000 0000 0001', 128],
    ['::ffff:0:0/96', '0000 0000 0000 0000 0000 ffff 0000 0000', 96],
  ])('%s', (text, bytes, prefix) => {
    expect(parseCidr(text)).toEqual({ text, bytes: hex(bytes), prefix })
  })

  test('trims surrounding whitespace and keeps the trimmed text', () => {
    expect(parseCidr('  10.0.0.0/8\t')).toEqual({ text: '10.0.0.0/8', bytes: hex('0000 0000 0000 0000 0000 ffff 0a00 0000'), prefix: 104 })
  })

  test.each([
    ['10.0.0.0/0', 96],
    ['10.0.0.0/1', 97],
    ['10.0.0.0/7', 103],
    ['10.0.0.0/9', 105],
    ['10.0.0.0/31', 127],
    ['10.0.0.0/32', 128],
    ['2001:db8::/0', 0],
    ['2001:db8::/64', 64],
    ['2001:db8::/127', 127],
    ['2001:db8::/128', 128],
  ])('accepts boundary prefix %s', (text, prefix) => {
    expect(parseCidr(text)?.prefix).toBe(prefix)
  })

  test.each([
    [''],
    ['abc'],
    ['abc/8'],
    ['1.2.3/8'],
    ['256.0.0.0/8'],
    ['10.0.0.0/33'],
    ['10.0.0.0/100'],
    ['10.0.0.0/1000'],
    ['::/129'],
    ['2001:db8::/200'],
    ['10.0.0.0/'],
    ['::/'],
    ['/8'],
    ['10.0.0.0/8/1'],
    ['10.0.0.0/-1'],
    ['10.0.0.0/+8'],
    ['10.0.0.0/8.0'],
    ['10.0.0.0/ 8'],
    ['10.0.0.0 /8'],
    ['10.0.0.0/x'],
    ['fe80::1%eth0'],
    ['fe80::%eth0/64'],
  ])('rejects %p', (text) => {
    expect(parseCidr(text)).toBeUndefined()
  })
})

describe('cidrContains', () => {
  // [range, inside, outside]
  const cases: Array<[string, string[], string[]]> = [
    // IPv4 boundaries
    ['0.0.0.0/0', ['0.0.0.0', '10.1.2.3', '255.255.255.255'], ['::', '::1', '2001:db8::1']],
    ['128.0.0.0/1', ['128.0.0.0', '200.1.1.1', '255.255.255.255'], ['0.0.0.0', '127.255.255.255']],
    ['10.0.0.0/7', ['10.0.0.0', '11.255.255.255'], ['9.255.255.255', '12.0.0.0']],
    ['10.0.0.0/8', ['10.0.0.0', '10.1.2.3', '10.255.255.255'], ['9.255.255.255', '11.0.0.0', '110.0.0.1']],
    ['10.128.0.0/9', ['10.128.0.0', '10.255.255.255'], ['10.127.255.255', '11.0.0.0']],
    ['172.16.0.0/12', ['172.16.0.0', '172.31.255.255'], ['172.15.255.255', '172.32.0.0']],
    ['192.168.1.4/31', ['192.168.1.4', '192.168.1.5'], ['192.168.1.3', '192.168.1.6']],
    ['192.168.1.4/32', ['192.168.1.4'], ['192.168.1.3', '192.168.1.5']],
    ['192.168.1.4', ['192.168.1.4'], ['192.168.1.5', '::ffff:192.168.1.5']],
    // host bits set in the range are ignored: only the prefix is compared
    ['10.1.2.3/8', ['10.200.0.1'], ['11.1.2.3']],
    // IPv6 boundaries
    ['::/0', ['::', '::1', '2001:db8::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '1.2.3.4'], []],
    ['2001:db8::/32', ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], ['2001:db9::', '2001:db7:ffff::', '10.1.2.3']],
    ['2001:db8:8000::/33', ['2001:db8:8000::', '2001:db8:ffff::1'], ['2001:db8:7fff:ffff:ffff:ffff:ffff:ffff']],
    [
      '2001:db8:abcd:12::/64',
      ['2001:db8:abcd:12::', '2001:db8:abcd:12::1', '2001:db8:abcd:12:ffff:ffff:ffff:ffff'],
      ['2001:db8:abcd:13::', '2001:db8:abcd:11:ffff:ffff:ffff:ffff'],
    ],
    ['2001:db8::/127', ['2001:db8::', '2001:db8::1'], ['2001:db8::2', '2001:db8::3', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff']],
    ['2001:db8::1/128', ['2001:db8::1', '2001:0db8:0:0:0:0:0:1', '2001:DB8::1', '[2001:db8::1]'], ['2001:db8::', '2001:db8::2']],
    ['::1', ['::1', '[::1]', '0:0:0:0:0:0:0:1'], ['::', '::2', '127.0.0.1']],
    // the IPv4-mapped block as an IPv6 range holds every IPv4 address
    ['::ffff:0:0/96', ['0.0.0.0', '1.2.3.4', '255.255.255.255'], ['::1', '64:ff9b::1.2.3.4']],
  ]

  for (const [text, inside, outside] of cases) {
    for (const ip of inside) test(`${text} contains ${ip}`, () => expect(cidrContains(range(text), ip)).toBe(true))
    for (const ip of outside) test(`${text} does not contain ${ip}`, () => expect(cidrContains(range(text), ip)).toBe(false))
  }

  test.each([['::ffff:10.1.2.3'], ['::FFFF:10.1.2.3'], ['[::ffff:10.1.2.3]'], ['0:0:0:0:0:ffff:10.1.2.3'], ['::ffff:a01:203']])(
    'an IPv4 range matches the IPv4-mapped IPv6 form %s',
    (ip) => {
      expect(cidrContains(range('10.0.0.0/8'), ip)).toBe(true)
    },
  )

  test.each([['::ffff:11.1.2.3'], ['::10.1.2.3'], ['64:ff9b::10.1.2.3'], ['::ffff:0:10.1.2.3'], ['a01:203::'], ['::a01:203']])(
    'an IPv4 range does not match the IPv6 address %s',
    (ip) => {
      expect(cidrContains(range('10.0.0.0/8'), ip)).toBe(false)
    },
  )

  test.each([[''], ['abc'], ['1.2.3'], ['256.1.1.1'], ['fe80::1%eth0'], ['10.0.0.0/8']])(
    'an unparseable address %p is never contained, even by ::/0',
    (ip) => {
      expect(cidrContains(range('::/0'), ip)).toBe(false)
      expect(cidrContains(range('0.0.0.0/0'), ip)).toBe(false)
    },
  )

  test('accepts already-parsed bytes', () => {
    expect(cidrContains(range('10.0.0.0/8'), hex('0000 0000 0000 0000 0000 ffff 0a63 0001'))).toBe(true)
    expect(cidrContains(range('10.0.0.0/8'), hex('0000 0000 0000 0000 0000 ffff 0b00 0001'))).toBe(false)
    expect(cidrContains(range('2001:db8::/32'), hex('2001 0db8 1234 0000 0000 0000 0000 0001'))).toBe(true)
    expect(cidrContains(range('2001:db8::/32'), hex('2001 0db9 0000 0000 0000 0000 0000 0001'))).toBe(false)
  })
})

describe('normalizeIp', () => {
  test.each([
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:1.2.3.4', '1.2.3.4'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['::ffff:0.0.0.0', '0.0.0.0'],
  ])('turns the IPv4-mapped %s into %s', (text, expected) => {
    expect(normalizeIp(text)).toBe(expected)
  })

  test.each([
    ['1.2.3.4'],
    ['::1'],
    ['::'],
    ['2001:db8::1'],
    ['fe80::1%eth0'],
    ['::ffff:1.2.3'],
    ['::ffff:256.1.2.3'],
    ['::ffff:'],
    ['::ffff'],
    [''],
    ['abc'],
  ])('leaves %p unchanged', (text) => {
    expect(normalizeIp(text)).toBe(text)
  })

  test.each([
    ['::1.2.3.4', '::102:304'],
    ['64:ff9b::1.2.3.4', '64:ff9b::102:304'],
    ['::ffff:0:1.2.3.4', '::ffff:0:102:304'],
  ])('writes the embedded dotted quad of the non-mapped %s in hex: %s', (text, expected) => {
    expect(normalizeIp(text)).toBe(expected)
  })
})

describe('regressions', () => {
  test('brackets are not CIDR notation: [10.0.0.0]/8 is refused rather than read as an IPv6 /8', () => {
    for (const text of ['[10.0.0.0]/8', '[10.0.0.0]/33', '[::1]/128', '[::1]']) expect(parseCidr(text)).toBeUndefined()
  })

  test('normalizeIp turns every spelling of an IPv4-mapped address into dotted IPv4', () => {
    expect(normalizeIp('[::ffff:1.2.3.4]')).toBe('1.2.3.4')
    expect(normalizeIp('::ffff:102:304')).toBe('1.2.3.4')
    expect(normalizeIp('0:0:0:0:0:ffff:1.2.3.4')).toBe('1.2.3.4')
    expect(normalizeIp('::FFFF:10.0.0.1')).toBe('10.0.0.1')
    expect(normalizeIp('2001:db8::1')).toBe('2001:db8::1')
    expect(normalizeIp('10.0.0.1')).toBe('10.0.0.1')
  })
})

describe('normalizeIp gives one spelling per IPv6 address (RFC 5952)', () => {
  const cases: [string, string][] = [
    ['[2001:db8::1]', '2001:db8::1'],
    ['2001:DB8:0:0::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2:3:4:5:6'],
    ['2001:db8:0:1:2:3:4:5', '2001:db8:0:1:2:3:4:5'],
    ['::', '::'],
    ['::1', '::1'],
    ['fe80::', 'fe80::'],
    ['not-an-ip', 'not-an-ip'],
  ]
  for (const [input, canonical] of cases) test(`${input} -> ${canonical}`, () => expect(normalizeIp(input)).toBe(canonical))
})
