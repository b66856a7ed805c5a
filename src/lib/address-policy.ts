// SSRF defence for webhooks: decides whether an outgoing connection may go to a given IP address.
import { type Cidr, cidrContains, parseCidr, parseIp } from './cidr.ts'

export type Classification = { public: true } | { public: false; reason: string }
export type Decision = { ok: true } | { ok: false; reason: string }

interface Range {
  readonly cidr: Cidr
  readonly reason: string
}

function range(text: string): Cidr {
  const cidr = parseCidr(text)
  // A typo here would silently open a hole, so refuse to load rather than skip the entry.
  if (!cidr) throw new Error(`address-policy: bad built-in range ${text}`)
  return cidr
}

function ranges(entries: readonly (readonly [string, string])[]): readonly Range[] {
  return entries.map(([text, reason]) => ({ cidr: range(text), reason }))
}

// First match wins, so a range sits before any wider one that contains it (broadcast before 240/4).
const IPV4_RANGES = ranges([
  ['0.0.0.0/8', 'this network'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['198.18.0.0/15', 'benchmarking'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
])

// ::/128 and ::1 come before the IPv4-compatible ::/96 check, which would otherwise swallow them.
const IPV6_RANGES = ranges([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
  ['2001:db8::/32', 'documentation'],
  ['100::/64', 'discard'],
])

const IPV4_MAPPED = range('::ffff:0:0/96')
const IPV4_COMPATIBLE = range('::/96')
const NAT64 = range('64:ff9b::/96')
const NAT64_LOCAL = range('64:ff9b:1::/48')
const SIX_TO_FOUR = range('2002::/16')
const TEREDO = range('2001::/32')

/** Whether an address is publicly routable, and if not, a short human-readable reason. */
export function classifyAddress(ip: string): Classification {
  const bytes = parseIp(ip)
  if (!bytes) return { public: false, reason: 'not an IP address' }
  // parseIp holds 1.2.3.4 and ::ffff:1.2.3.4 as the same bytes; only the text tells them apart.
  const writtenAsIpv6 = ip.includes(':')
  if (cidrContains(IPV4_MAPPED, bytes)) {
    return withSuffix(classifyIpv4(bytes.subarray(12)), writtenAsIpv6 ? ' (IPv4-mapped)' : '')
  }
  const listed = IPV6_RANGES.find((r) => cidrContains(r.cidr, bytes))
  if (listed) return { public: false, reason: listed.reason }
  if (cidrContains(IPV4_COMPATIBLE, bytes)) return withSuffix(classifyIpv4(bytes.subarray(12)), ' (IPv4-compatible)')
  if (cidrContains(NAT64, bytes)) return withSuffix(classifyIpv4(bytes.subarray(12)), ' (NAT64)')
  // Under the local-use prefix the operator picks where the IPv4 sits (RFC 6052 /48 to /96), so the
  // last four bytes may not be what the translator dials; treat the whole prefix as internal.
  if (cidrContains(NAT64_LOCAL, bytes)) return { public: false, reason: 'local-use NAT64' }
  if (cidrContains(SIX_TO_FOUR, bytes)) return withSuffix(classifyIpv4(bytes.subarray(2, 6)), ' (6to4)')
  // The Teredo client address is obfuscated and the relay path is outside our control: never dial it.
  if (cidrContains(TEREDO, bytes)) return { public: false, reason: 'teredo' }
  return { public: true }
}

/** Whether a webhook may connect to `ip`: public addresses always, others only inside an operator range. */
export function isAddressAllowed(ip: string, allowed: readonly Cidr[]): Decision {
  const verdict = classifyAddress(ip)
  if (verdict.public) return { ok: true }
  // Unparseable text never matches a range (cidrContains refuses it), so it stays refused.
  if (allowed.some((range) => cidrContains(range, ip))) return { ok: true }
  return { ok: false, reason: verdict.reason }
}

/**
 * The IP address a URL hostname names directly (`127.0.0.1`, `[::1]` → `::1`), or undefined for a
 * DNS name. WHATWG URL has already turned odd IPv4 spellings (0x7f.1, 2130706433) into dotted form.
 */
export function literalHostAddress(hostname: string): string | undefined {
  const bracketed = hostname.startsWith('[') && hostname.endsWith(']')
  const inner = bracketed ? hostname.slice(1, -1) : hostname
  // Brackets only ever hold IPv6; a bare IPv6 is not a valid hostname, but it is still a literal
  // address, so return it rather than let a caller treat it as a name to resolve.
  if (bracketed && !inner.includes(':')) return undefined
  return parseIp(inner) ? inner : undefined
}

function classifyIpv4(octets: Uint8Array): Classification {
  const bytes = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...octets])
  const listed = IPV4_RANGES.find((r) => cidrContains(r.cidr, bytes))
  return listed ? { public: false, reason: listed.reason } : { public: true }
}

function withSuffix(verdict: Classification, suffix: string): Classification {
  return verdict.public ? verdict : { public: false, reason: verdict.reason + suffix }
}
