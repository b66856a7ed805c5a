// SSRF defence for webhooks: decides whether an outgoing connection may go to a given IP address.
import { type Cidr, cidrContains, parseCidr, parseIp } from './cidr.ts'

export type Classification = { public: true } | { public: false; reason: string }
export type Decision = { ok: true } | { ok: false; reason: string }

interface Range {
  readonly cidr: Cidr
  readonly reason: string
  /** Where it comes from (the RFC), for a reader checking the table against IANA's registries. */
  readonly source: string
  /** `embedded`: an IPv6 form carrying an IPv4 address at these bytes, judged by that address. */
  readonly embedded?: { readonly from: number; readonly suffix: string }
}

function range(text: string): Cidr {
  const cidr = parseCidr(text)
  // A typo here would silently open a hole, so refuse to load rather than skip the entry.
  if (!cidr) throw new Error(`address-policy: bad built-in range ${text}`)
  return cidr
}

type Entry = readonly [text: string, reason: string, source: string]

function ranges(entries: readonly Entry[]): readonly Range[] {
  return entries.map(([text, reason, source]) => ({ cidr: range(text), reason, source }))
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates), every entry, plus multicast
// and limited broadcast from the IPv4 address space registry. Each is refused, including the few the
// registry calls globally reachable (the anycast /32s in 192.0.0.0/24, AS112, AMT): no webhook
// receiver lives at a DNS sink, a relay anycast or a protocol assignment, and refusing the whole
// 192.0.0.0/24 spares a check per /32. First match wins: a range sits before any wider one that
// contains it, so the reason is the most specific.
export const IPV4_SPECIAL_PURPOSE = ranges([
  ['0.0.0.0/32', 'this host', 'RFC 1122 §3.2.1.3'],
  ['0.0.0.0/8', 'this network', 'RFC 791 §3.2'],
  ['10.0.0.0/8', 'private', 'RFC 1918'],
  ['100.64.0.0/10', 'carrier-grade NAT', 'RFC 6598'],
  ['127.0.0.0/8', 'loopback', 'RFC 1122 §3.2.1.3'],
  ['169.254.0.0/16', 'link-local', 'RFC 3927'],
  ['172.16.0.0/12', 'private', 'RFC 1918'],
  ['192.0.0.0/29', 'IPv4 service continuity', 'RFC 7335'],
  ['192.0.0.8/32', 'IPv4 dummy address', 'RFC 7600'],
  ['192.0.0.9/32', 'PCP anycast', 'RFC 7723'],
  ['192.0.0.10/32', 'TURN anycast', 'RFC 8155'],
  ['192.0.0.170/32', 'NAT64/DNS64 discovery', 'RFC 8880, RFC 7050'],
  ['192.0.0.171/32', 'NAT64/DNS64 discovery', 'RFC 8880, RFC 7050'],
  ['192.0.0.0/24', 'IETF protocol assignments', 'RFC 6890 §2.1'],
  ['192.0.2.0/24', 'documentation', 'RFC 5737 (TEST-NET-1)'],
  ['192.31.196.0/24', 'AS112', 'RFC 7535 (AS112-v4)'],
  ['192.52.193.0/24', 'AMT', 'RFC 7450'],
  ['192.88.99.0/24', '6to4 relay anycast', 'RFC 7526 (deprecated)'],
  ['192.168.0.0/16', 'private', 'RFC 1918'],
  ['192.175.48.0/24', 'AS112', 'RFC 7534 (direct delegation AS112 service)'],
  ['198.18.0.0/15', 'benchmarking', 'RFC 2544'],
  ['198.51.100.0/24', 'documentation', 'RFC 5737 (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation', 'RFC 5737 (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast', 'RFC 5771'],
  ['255.255.255.255/32', 'broadcast', 'RFC 8190, RFC 919 §7'],
  ['240.0.0.0/4', 'reserved', 'RFC 1112 §4'],
])

// IANA IPv6 Special-Purpose Address Registry (RFC 6890 and its updates), every entry, plus multicast
// and the deprecated site-local prefix. As for IPv4, the entries the registry calls globally reachable
// (the anycast /128s, AMT, AS112, ORCHIDv2, DRIP) are refused too: they all sit in the IETF protocol
// assignments block 2001::/23, refused whole. The forms that carry an IPv4 address (mapped, NAT64,
// 6to4, and the deprecated IPv4-compatible ::/96) are judged by that address; ::/128 and ::1/128
// come before ::/96, which would otherwise swallow them.
const IPV6_LISTED: readonly Entry[] = [
  ['::/128', 'unspecified', 'RFC 4291 §2.5.2'],
  ['::1/128', 'loopback', 'RFC 4291 §2.5.3'],
  // (::ffff:0:0/96, IPv4-mapped, RFC 4291 §2.5.5.2: judged by the IPv4 before this table, see classifyAddress.)
  ['64:ff9b:1::/48', 'local-use NAT64', 'RFC 8215'],
  ['100::/64', 'discard', 'RFC 6666'],
  ['100:0:0:1::/64', 'dummy prefix', 'RFC 9780'],
  ['2001::/32', 'teredo', 'RFC 4380, RFC 8190'],
  ['2001:1::1/128', 'PCP anycast', 'RFC 7723'],
  ['2001:1::2/128', 'TURN anycast', 'RFC 8155'],
  ['2001:1::3/128', 'DNS-SD SRP anycast', 'RFC 9665'],
  ['2001:2::/48', 'benchmarking', 'RFC 5180, errata 1752'],
  ['2001:3::/32', 'AMT', 'RFC 7450'],
  ['2001:4:112::/48', 'AS112', 'RFC 7535 (AS112-v6)'],
  ['2001:10::/28', 'ORCHID', 'RFC 4843 (deprecated)'],
  ['2001:20::/28', 'ORCHIDv2', 'RFC 7343'],
  ['2001:30::/28', 'drone remote ID', 'RFC 9374 (DRIP entity tags)'],
  ['2001::/23', 'IETF protocol assignments', 'RFC 2928'],
  ['2001:db8::/32', 'documentation', 'RFC 3849'],
  ['2620:4f:8000::/48', 'AS112', 'RFC 7534 (direct delegation AS112 service)'],
  ['3fff::/20', 'documentation', 'RFC 9637'],
  ['5f00::/16', 'SRv6 SIDs', 'RFC 9602'],
  ['fc00::/7', 'unique local', 'RFC 4193, RFC 8190'],
  ['fe80::/10', 'link-local', 'RFC 4291 §2.5.6'],
  ['fec0::/10', 'site-local', 'RFC 3879 (deprecated)'],
  ['ff00::/8', 'multicast', 'RFC 4291 §2.7'],
]

// IPv6 forms that embed an IPv4 address, judged by it (bytes `from` to `from + 4`).
const IPV6_EMBEDDING: readonly Range[] = [
  // Deprecated, but a resolver may still return one; only past ::/128 and ::1/128 (listed above).
  {
    cidr: range('::/96'),
    reason: '',
    source: 'RFC 4291 §2.5.5.1 (IPv4-compatible, deprecated)',
    embedded: { from: 12, suffix: ' (IPv4-compatible)' },
  },
  { cidr: range('64:ff9b::/96'), reason: '', source: 'RFC 6052 (NAT64 well-known prefix)', embedded: { from: 12, suffix: ' (NAT64)' } },
  { cidr: range('2002::/16'), reason: '', source: 'RFC 3056 (6to4)', embedded: { from: 2, suffix: ' (6to4)' } },
]

/**
 * The IPv6 table in the order it is applied: listed ranges first (more specific first), then the
 * IPv4-carrying forms. Under the local-use NAT64 prefix 64:ff9b:1::/48 the operator picks where the
 * IPv4 sits (RFC 6052: /48 to /96), so the last four bytes may not be what the translator dials: it is
 * listed as internal, not judged by them. The Teredo client address is obfuscated and the relay path
 * is outside our control: never dialled.
 */
export const IPV6_SPECIAL_PURPOSE: readonly Range[] = [...ranges(IPV6_LISTED), ...IPV6_EMBEDDING]

const IPV4_MAPPED = range('::ffff:0:0/96')
// IANA's IPv6 address space: only 2000::/3 is allocated for global unicast; the rest (past the
// special-purpose entries above) is reserved by the IETF and routes nowhere on the internet.
const GLOBAL_UNICAST = range('2000::/3')

/** Whether an address is publicly routable, and if not, a short human-readable reason. */
export function classifyAddress(ip: string): Classification {
  const bytes = parseIp(ip)
  if (!bytes) return { public: false, reason: 'not an IP address' }
  // parseIp holds 1.2.3.4 and ::ffff:1.2.3.4 as the same bytes; only the text tells them apart.
  const writtenAsIpv6 = ip.includes(':')
  if (cidrContains(IPV4_MAPPED, bytes)) {
    return withSuffix(classifyIpv4(bytes.subarray(12)), writtenAsIpv6 ? ' (IPv4-mapped)' : '')
  }
  const listed = IPV6_SPECIAL_PURPOSE.find((r) => cidrContains(r.cidr, bytes))
  if (listed?.embedded)
    return withSuffix(classifyIpv4(bytes.subarray(listed.embedded.from, listed.embedded.from + 4)), listed.embedded.suffix)
  if (listed) return { public: false, reason: listed.reason }
  if (!cidrContains(GLOBAL_UNICAST, bytes)) return { public: false, reason: 'reserved by the IETF' }
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
  const listed = IPV4_SPECIAL_PURPOSE.find((r) => cidrContains(r.cidr, bytes))
  return listed ? { public: false, reason: listed.reason } : { public: true }
}

function withSuffix(verdict: Classification, suffix: string): Classification {
  return verdict.public ? verdict : { public: false, reason: verdict.reason + suffix }
}
