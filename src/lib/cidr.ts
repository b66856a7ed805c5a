// IP addresses and CIDR ranges (IPv4 and IPv6): parse, normalise IPv4-mapped IPv6, and test membership.
import { isIPv4, isIPv6 } from 'node:net'

/** A range as 16 bytes (IPv4 kept as ::ffff:a.b.c.d) plus a prefix length over those 128 bits. */
export interface Cidr {
  readonly text: string
  readonly bytes: Uint8Array
  readonly prefix: number
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]

/** Parses an IPv4 or IPv6 address into 16 bytes; IPv4 and `::ffff:a.b.c.d` give the same bytes. */
export function parseIp(text: string): Uint8Array | undefined {
  const address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (isIPv4(address)) return Uint8Array.from([...MAPPED_PREFIX, ...address.split('.').map(Number)])
  if (!isIPv6(address) || address.includes('%')) return undefined
  let head = address
  let tail: number[] = []
  const dotted = address.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    head = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1)
    const v4 = dotted[2]!.split('.').map(Number)
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!]
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined]
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const l = groups(left)
  const r = groups(right)
  const fill = 8 - l.length - r.length - tail.length
  const words = right === undefined ? [...l, ...tail] : [...l, ...new Array<number>(fill).fill(0), ...r, ...tail]
  if (words.length !== 8) return undefined
  const bytes = new Uint8Array(16)
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8
    bytes[i * 2 + 1] = w & 0xff
  })
  return bytes
}

/** Parses `10.0.0.0/8`, `2001:db8::/32` or a bare address (a /32 or /128 range). */
export function parseCidr(text: string): Cidr | undefined {
  const trimmed = text.trim()
  // Brackets belong to host:port syntax, not to CIDR notation.
  if (trimmed.includes('[')) return undefined
  const slash = trimmed.indexOf('/')
  const address = slash === -1 ? trimmed : trimmed.slice(0, slash)
  const bytes = parseIp(address)
  if (!bytes) return undefined
  const v4 = isIPv4(address)
  const max = v4 ? 32 : 128
  let bits = max
  if (slash !== -1) {
    const p = trimmed.slice(slash + 1)
    if (!/^\d{1,3}$/.test(p) || Number(p) > max) return undefined
    bits = Number(p)
  }
  return { text: trimmed, bytes, prefix: v4 ? bits + 96 : bits }
}

/** True when `ip` (any textual form, including `::ffff:a.b.c.d`) is inside the range. */
export function cidrContains(range: Cidr, ip: string | Uint8Array): boolean {
  const bytes = typeof ip === 'string' ? parseIp(ip) : ip
  if (!bytes) return false
  // IPv4 is held as ::ffff:a.b.c.d, so one 128-bit comparison serves both families.
  let bits = range.prefix
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff
    if ((range.bytes[i]! & mask) !== (bytes[i]! & mask)) return false
  }
  return true
}

/**
 * The canonical text of an address, so one client has one spelling: IPv4-mapped IPv6 (any spelling)
 * becomes dotted IPv4, other IPv6 the RFC 5952 form (lowercase, no brackets, longest zero run as ::).
 * Text that is not an address comes back unchanged.
 */
export function normalizeIp(text: string): string {
  const bytes = text.includes(':') ? parseIp(text) : undefined
  if (!bytes) return text
  if (MAPPED_PREFIX.every((b, i) => bytes[i] === b)) return bytes.subarray(12).join('.')
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[i * 2]! << 8) | bytes[i * 2 + 1]!)
  // The longest run of two or more zero groups (the first, on a tie) becomes "::".
  let best = { start: -1, length: 1 }
  for (let i = 0; i < 8; ) {
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > best.length) best = { start: i, length: j - i }
    i = j === i ? i + 1 : j
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((g) => g.toString(16))
      .join(':')
  if (best.start === -1) return hex(0, 8)
  return `${hex(0, best.start)}::${hex(best.start + best.length, 8)}`
}

/**
 * The unit one client is counted by: an IPv4 address itself, an IPv6 address's /64 (one subscriber
 * usually holds a whole /64, so counting single IPv6 addresses would let one client count as 2^64).
 */
export function clientNetwork(ip: string): string {
  if (!ip.includes(':')) return ip
  const bytes = parseIp(ip)
  if (!bytes) return ip
  if (MAPPED_PREFIX.every((b, i) => bytes[i] === b)) return bytes.subarray(12).join('.')
  const words = Array.from({ length: 4 }, (_, i) => ((bytes[i * 2]! << 8) | bytes[i * 2 + 1]!).toString(16))
  return `${words.join(':')}::/64`
}
