// Recovery codes: 10 per user, 80 random bits each (xxxx-xxxx-xxxx-xxxx in Crockford base32), shown
// once, stored as SHA-256 (enough for 80 random bits), each usable once.
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { replaceRecoveryCodeRows, useRecoveryCodeHash } from './store.ts'

export const RECOVERY_CODE_COUNT = 10
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  // 16 characters of 5 bits: the low 5 bits of each byte are uniform.
  const chars = Array.from(bytes, (b) => ALPHABET[b & 31])
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-')
}

/** Case, dashes and spaces do not matter; Crockford's look-alikes (i, l -> 1; o -> 0) are forgiven. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0')
}

function hashCode(userId: string, code: string): string {
  return new Bun.CryptoHasher('sha256').update(`${userId}:${normalizeRecoveryCode(code)}`).digest('hex')
}

/** A fresh set: the previous codes stop working. Returns the codes to show once. */
export async function replaceRecoveryCodes(tx: Tx, userId: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode)
  await replaceRecoveryCodeRows(
    tx,
    userId,
    codes.map((code) => ({ id: prefixedId('rcv'), user_id: userId, code_hash: hashCode(userId, code), created_at: now, used_at: null })),
  )
  return codes
}

/** Marks the code used if it is an unused code of the user; false otherwise. */
export async function useRecoveryCode(tx: Tx, userId: string, code: string, now: number): Promise<boolean> {
  return useRecoveryCodeHash(tx, userId, hashCode(userId, code), now)
}
