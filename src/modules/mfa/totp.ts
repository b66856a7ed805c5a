// TOTP (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps) through `otpauth`, with the replay guard of
// RFC 6238 §5.2: a code is accepted only for a time step later than the last one accepted.
import { Secret, TOTP } from 'otpauth'
import { seal, unseal } from '../keys/index.ts'

const PERIOD_S = 30
const DIGITS = 6
// One step either side: a code typed just as it rolls over, or a phone clock a little off.
const WINDOW = 1
const ISSUER = 'Switchboard'

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

function totp(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S, secret: Secret.fromBase32(secretBase32) })
}

/** The `otpauth://totp/…` URI an authenticator app scans (as a QR code). */
export function otpauthUri(secretBase32: string, label: string): string {
  return totp(secretBase32, label).toString()
}

/**
 * The time step `code` belongs to (within one step of `now`), if that step is later than `lastStep`;
 * undefined for a wrong code or a replay.
 */
export function acceptTotp(secretBase32: string, code: string, now: number, lastStep: number | null): number | undefined {
  // Apps show codes as "123 456"; copied with spaces around, they are still the code.
  const digits = code.replace(/\s/g, '')
  if (!/^\d{6}$/.test(digits)) return undefined
  const delta = totp(secretBase32, '').validate({ token: digits, timestamp: now, window: WINDOW })
  if (delta === null) return undefined
  const step = Math.floor(now / 1000 / PERIOD_S) + delta
  return lastStep !== null && step <= lastStep ? undefined : step
}

/** TOTP secrets are sealed with the master key, bound to their user. */
export function sealSecret(masterKey: Uint8Array, secretBase32: string, userId: string): string {
  return seal(masterKey, new TextEncoder().encode(secretBase32), `totp:${userId}`)
}

export function unsealSecret(masterKey: Uint8Array, sealed: string, userId: string): string {
  return new TextDecoder().decode(unseal(masterKey, sealed, `totp:${userId}`))
}
