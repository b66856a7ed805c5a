// The client's address: the TCP peer, or, when the peer is a trusted proxy, the rightmost address of
// X-Forwarded-For that is not itself a trusted proxy. IPv4-mapped IPv6 is written as plain IPv4.
import { cidrContains, normalizeIp, parseIp, type Cidr } from '../lib/cidr.ts'

export function clientIp(peer: string | undefined, forwardedFor: string | null, trusted: readonly Cidr[]): string | null {
  if (!peer) return null
  let ip = normalizeIp(peer)
  const isTrusted = (address: string) => trusted.some((range) => cidrContains(range, address))
  if (forwardedFor === null || !isTrusted(ip)) return ip
  const hops = forwardedFor.split(',').map((h) => h.trim()).filter((h) => h !== '')
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i]!)
    // A garbled hop ends the trustworthy part of the chain: the last proxy we trust is the answer.
    if (!parseIp(hop)) return ip
    if (!isTrusted(hop)) return hop
    ip = hop
  }
  return ip
}
