// What settings declarations share (src/settings/, src/modules/*/settings.ts): ConfigError and parsers of URLs, durations, lists.
import { type Cidr, parseCidr } from './cidr.ts'
import { isEmailAddress } from './email.ts'

export const MiB = 1024 * 1024

/** The settings as read and checked against their schemas, by name (undefined: unset, no default). */
export type SettingValues = Readonly<Record<string, unknown>>

/** A setting is invalid; the message is one line naming the variable and what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** A base URL: http(s), without credentials, query or fragment; the trailing slashes dropped. */
export function parseUrl(name: string, text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got ${JSON.stringify(text)})`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`${name} must be an http(s) URL without credentials, query or fragment (got ${JSON.stringify(text)})`)
  }
  return url.href.replace(/\/+$/, '')
}

/** A service's URL (credentials allowed, they are the point); never echoed back in an error. */
export function parseServiceUrl(name: string, text: string, protocols: string[]): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ConfigError(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`)
  }
  if (!protocols.includes(url.protocol) || url.hostname === '') {
    throw new ConfigError(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}, with a host`)
  }
  return text
}

/** An http(s) URL to call; unlike a base URL it may carry a query string. */
export function parseEndpointUrl(name: string, text: string): string {
  const url = URL.parse(text)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.hash) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without credentials or fragment (got ${JSON.stringify(text)})`)
  }
  return url.href
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** Comma-separated durations such as `1d,3d` or `90s` (1 second to 365 days each), in ms. */
export function parseDurations(name: string, text: string, max: number): number[] {
  const parts = text.split(',').map((p) => p.trim())
  const fail = (why: string) => new ConfigError(`${name} ${why} (got ${JSON.stringify(text)})`)
  if (parts.length > max) throw fail(max === 1 ? 'must be one duration' : `must list at most ${max} durations`)
  return parts.map((part) => {
    const match = /^(\d{1,6})([smhd])$/.exec(part)
    const ms = match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : 0
    if (ms < 1000 || ms > 365 * 86_400_000) throw fail('must be whole numbers with a unit (s, m, h or d), from 1s to 365d')
    return ms
  })
}

/** An e-mail address by the one rule (src/lib/email.ts), lowercased. */
export function parseEmail(name: string, text: string): string {
  if (!isEmailAddress(text)) throw new ConfigError(`${name} must be an e-mail address (got ${JSON.stringify(text)})`)
  return text.toLowerCase()
}

/** Comma-separated IPs or CIDR ranges; empty items are skipped. */
export function parseCidrList(name: string, text: string): Cidr[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  const bad = items.filter((s) => !parseCidr(s))
  if (bad.length > 0) throw new ConfigError(`${name} has invalid IP addresses or CIDR ranges: ${bad.join(', ')}`)
  return items.map((s) => parseCidr(s)!)
}
