// The client's address: the TCP peer, or, when the peer is a trusted proxy, the rightmost address of
// X-Forwarded-For that is not itself a trusted proxy. IPv4-mapped IPv6 is written as plain IPv4.
// Hops may carry a port as some proxies write them (`1.2.3.4:5678`, `[2001:db8::1]:443`); it is dropped.
import { cidrContains, normalizeIp, parseIp, type Cidr } from '../lib/cidr.ts'

export function clientIp(peer: string | undefined, forwardedFor: string | null, trusted: readonly Cidr[]): string | null {
  if (!peer) return null
  let ip = normalizeIp(peer)
  const isTrusted = (address: string) => trusted.some((range) => cidrContains(range, address))
  if (forwardedFor === null || !isTrusted(ip)) return ip
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '')
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i]!)
    // A trusted proxy reported a client we cannot read: the client is unknown. Not the proxy: a
    // request must never pass for a trusted (often allowlisted) address by sending something garbled.
    if (hop === undefined) return null
    if (!isTrusted(hop)) return hop
    ip = hop
  }
  return ip
}

/** The address of one hop (`a.b.c.d`, `a.b.c.d:port`, an IPv6 address, `[v6]` or `[v6]:port`), normalised; undefined if it is none of these. */
function hopAddress(hop: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(hop)
  const v4WithPort = bracketed ? null : /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(hop)
  const port = bracketed?.[2] ?? v4WithPort?.[2]
  if (port !== undefined && Number(port) > 65535) return undefined
  const address = normalizeIp(bracketed?.[1] ?? v4WithPort?.[1] ?? hop)
  return parseIp(address) ? address : undefined
}
