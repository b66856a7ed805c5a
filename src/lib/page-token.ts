// Page tokens: opaque, HMAC-signed cursors that carry where a list stopped and what it was bound to
// (organization, filters and sort), with an expiry. Pure: the caller supplies the key and the time.
import { constantTimeEqual, hmacSha256 } from './hmac.ts'

export interface PagePosition {
  /** Sort value and id of the last item of the page. */
  after: [string | number, string]
}

export interface PageBinding {
  organizationId: string
  /** Digest of the resource, filters and sort the list was asked with. */
  query: string
}

interface Payload {
  v: 1
  o: string
  q: string
  k: [string | number, string]
  e: number
}

export type PageTokenError = 'malformed' | 'forged' | 'expired' | 'other_organization' | 'other_query'

function mac(key: Uint8Array, text: string): string {
  return hmacSha256(key, text, 'base64url')
}

export function encodePageToken(key: Uint8Array, binding: PageBinding, position: PagePosition, expiresAtS: number): string {
  const payload: Payload = { v: 1, o: binding.organizationId, q: binding.query, k: position.after, e: expiresAtS }
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
  return `${body}.${mac(key, body)}`
}

/** The position a token points at, or why it cannot be used for this request. */
export function decodePageToken(key: Uint8Array, token: string, binding: PageBinding, nowS: number): PagePosition | PageTokenError {
  const dot = token.indexOf('.')
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return 'malformed'
  const body = token.slice(0, dot)
  if (!constantTimeEqual(token.slice(dot + 1), mac(key, body))) return 'forged'
  let payload: Payload
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload
  } catch {
    return 'malformed'
  }
  const k = payload?.k
  if (
    payload?.v !== 1 ||
    !Array.isArray(k) ||
    k.length !== 2 ||
    typeof k[1] !== 'string' ||
    (typeof k[0] !== 'string' && typeof k[0] !== 'number') ||
    typeof payload.e !== 'number'
  )
    return 'malformed'
  if (payload.e <= nowS) return 'expired'
  if (payload.o !== binding.organizationId) return 'other_organization'
  if (payload.q !== binding.query) return 'other_query'
  return { after: k }
}

/** A stable digest of what a list was asked for: the same filters in any order give the same value. */
export function queryDigest(resource: string, filters: Record<string, unknown>, sort: string): string {
  const canonical = Object.keys(filters)
    .filter((k) => filters[k] !== undefined)
    .sort()
    .map((k) => [k, filters[k]])
  return new Bun.CryptoHasher('sha256')
    .update(JSON.stringify([resource, canonical, sort]))
    .digest('base64url')
    .slice(0, 22)
}
