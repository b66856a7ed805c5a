// Organization IP allowlists: parsing and validating entries, matching a client address (IPv4-mapped
// IPv6 counts as its IPv4 address), and a cache of parsed lists keyed by their stored JSON text.
import { cidrContains, parseCidr, type Cidr } from '../../lib/cidr.ts'

export const MAX_ALLOWLIST_ENTRIES = 200
/** Longer than any address or range can be written (an IPv6 address with an IPv4 tail and /128 is 49). */
export const MAX_ENTRY_LENGTH = 64

/** Parsed ranges, and the entries that are neither an address nor a CIDR range. */
export function parseAllowlist(entries: readonly string[]): { ranges: Cidr[]; invalid: string[] } {
  const ranges: Cidr[] = []
  const invalid: string[] = []
  for (const entry of entries) {
    const range = entry.length <= MAX_ENTRY_LENGTH ? parseCidr(entry) : undefined
    if (range && entry.trim() === entry) ranges.push(range)
    else invalid.push(entry)
  }
  return { ranges, invalid }
}

/** The network a range covers, as text: equal for every spelling of the same range. */
export function rangeKey(range: Cidr): string {
  const bytes = Array.from(range.bytes, (byte, i) => {
    const bits = Math.min(8, Math.max(0, range.prefix - i * 8))
    return byte & ((0xff << (8 - bits)) & 0xff)
  })
  return `${Buffer.from(bytes).toString('hex')}/${range.prefix}`
}

/** An empty list allows every address; otherwise an unknown address is refused (fail closed). */
export function ipAllowed(ranges: readonly Cidr[], ip: string | null): boolean {
  if (ranges.length === 0) return true
  if (ip === null) return false
  return ranges.some((range) => cidrContains(range, ip))
}

/** Parsed allowlists by stored text (read with the user on every request), and throttled denial records. */
export class Allowlists {
  private readonly parsed = new Map<string, readonly Cidr[]>([['[]', []]])
  private readonly denials = new Map<string, number>()

  constructor(private readonly capacity = 1000) {}

  /** The ranges of a stored `allowed_ips` value (JSON array text). */
  ranges(stored: string): readonly Cidr[] {
    let ranges = this.parsed.get(stored)
    if (ranges === undefined) {
      ranges = parseAllowlist(JSON.parse(stored) as string[]).ranges
      if (this.parsed.size >= this.capacity) this.parsed.clear()
      this.parsed.set(stored, ranges)
    }
    return ranges
  }

  /**
   * True when a denial of `ip` for `organizationId` should be written to the audit log: once a minute
   * per address and organization, so a client hammering the API cannot flood the log.
   */
  denialDue(organizationId: string, ip: string | null, now: number): boolean {
    const key = `${organizationId} ${ip}`
    const last = this.denials.get(key)
    if (last !== undefined && now - last < 60_000) return false
    if (this.denials.size >= this.capacity * 10) this.denials.clear()
    this.denials.set(key, now)
    return true
  }
}
