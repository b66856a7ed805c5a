// Signatures and headers of an outgoing webhook delivery: a GitHub-style body HMAC and a Standard Webhooks signature.
import { hmacSha256 } from './hmac.ts'

/**
 * `X-Service-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the body, keyed with the secret.
 * Byte for byte GitHub's `X-Hub-Signature-256`, so receivers can reuse a GitHub verifier unchanged.
 * Strings are hashed as UTF-8, which is what goes on the wire for both the body and the secret.
 */
export function serviceSignature(secret: string, body: string): string {
  return `sha256=${hmacSha256(secret, body, 'hex')}`
}

/**
 * `webhook-signature` per Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `${id}.${timestampS}.${body}`.
 *
 * The spec keys the HMAC with the base64-decoded part of a `whsec_` secret. Our secrets are arbitrary
 * user-chosen strings, not base64, so we key with their UTF-8 bytes, as serviceSignature does; one
 * secret then means one key for both headers. A receiver gets the spec's form of that same key from
 * standardWebhooksSecret().
 */
export function standardWebhookSignature(secret: string, id: string, timestampS: number, body: string): string {
  // Receivers parse the header back with parseInt; a fraction, exponent or negative would be signed
  // as text they never reconstruct, so the signature could never verify. Refuse it here instead.
  if (!Number.isSafeInteger(timestampS) || timestampS < 0) {
    throw new RangeError(`timestampS must be a non-negative integer number of seconds, got ${timestampS}`)
  }
  return `v1,${hmacSha256(secret, `${id}.${timestampS}.${body}`, 'base64')}`
}

/**
 * The secret in Standard Webhooks form, `whsec_` + base64 of its UTF-8 bytes: what a receiver passes to
 * `new Webhook(...)` of the `standardwebhooks` libraries, which strip `whsec_` and base64-decode the rest
 * into exactly the key standardWebhookSignature uses. (That library's `{ format: 'raw' }` with a string
 * takes one byte per UTF-16 code unit, not UTF-8, so it breaks on non-ASCII secrets: hence this form.)
 */
export function standardWebhooksSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`
}

export interface DeliveryHeaderInput {
  secret: string
  /** The event's id: Standard Webhooks' `webhook-id` stays the same across retries so receivers can deduplicate. */
  eventId: string
  /** This attempt's delivery record. */
  deliveryId: string
  attempt: number
  /** Unix seconds at which this attempt is signed. */
  timestampS: number
  /** The exact bytes sent (as a string); both signatures cover it as-is. */
  body: string
  userAgent: string
}

/** Every header of one delivery attempt, names in lowercase. */
export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const { secret, eventId, deliveryId, attempt, timestampS, body, userAgent } = input
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    'x-service-signature': serviceSignature(secret, body),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': standardWebhookSignature(secret, eventId, timestampS, body),
    'x-service-delivery-id': deliveryId,
    'x-service-attempt': String(attempt),
  }
}
