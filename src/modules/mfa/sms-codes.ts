// SMS codes: 6 random digits, stored hashed, valid 5 minutes; sending is throttled per user (one
// message per 30 seconds, 10 per hour) so nobody can run up an SMS bill or flood a phone.
import type { Tx } from '../../db/database.ts'
import { rateLimited } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { insertSmsMessage, lockUserMfa, recentSms } from './store.ts'

export const SMS_CODE_TTL_MS = 5 * 60 * 1000
const MIN_INTERVAL_MS = 30 * 1000
const HOURLY_LIMIT = 10
const HOUR_MS = 60 * 60 * 1000

/** E.164: a plus sign and up to 15 digits, the first not 0. */
export const E164 = '^\\+[1-9]\\d{6,14}$'

export function newSmsCode(): string {
  // Rejection sampling keeps every code equally likely (2^32 is not a multiple of 10^6).
  const limit = Math.floor(2 ** 32 / 1_000_000) * 1_000_000
  for (;;) {
    const value = crypto.getRandomValues(new Uint32Array(1))[0]!
    if (value < limit) return String(value % 1_000_000).padStart(6, '0')
  }
}

/** Bound to what it was sent for (a challenge or an enrollment), so a code cannot be carried over. */
export function hashSmsCode(boundTo: string, code: string): string {
  return new Bun.CryptoHasher('sha256').update(`${boundTo}:${code}`).digest('hex')
}

export function smsText(code: string): string {
  return `${code} is your Switchboard verification code. It expires in 5 minutes. Never share it.`
}

/** Refuses (429 with the seconds to wait) when the user was sent too many messages lately; else records one. */
export async function recordSmsSend(tx: Tx, userId: string, purpose: 'enroll' | 'login', now: number): Promise<void> {
  // Invariant: the throttle counts every message; simultaneous requests are counted one after the other.
  await lockUserMfa(tx, userId)
  const recent = await recentSms(tx, userId, now - HOUR_MS)
  // When both limits apply, the hourly one ends later: retry_after must be when a retry can succeed.
  if (recent.n >= HOURLY_LIMIT && recent.first !== null) {
    throw rateLimited((recent.first + HOUR_MS - now) / 1000, `At most ${HOURLY_LIMIT} codes are sent per hour`)
  }
  if (recent.last !== null && now - recent.last < MIN_INTERVAL_MS) {
    throw rateLimited((recent.last + MIN_INTERVAL_MS - now) / 1000, 'A code was sent moments ago: wait before asking for another')
  }
  await insertSmsMessage(tx, { id: prefixedId('sms'), user_id: userId, purpose, sent_at: now })
}

/** `+4915112345678` -> `+49•••••••5678`: enough to recognise the number, not to read it off a screen. */
export function maskPhone(phone: string): string {
  return phone.slice(0, 3) + '•'.repeat(Math.max(0, phone.length - 7)) + phone.slice(-4)
}
