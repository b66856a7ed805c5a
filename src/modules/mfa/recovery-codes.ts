// Recovery codes: 10 per user, 80 random bits each (xxxx-xxxx-xxxx-xxxx in Crockford base32), shown
// once, stored as SHA-256 (enough for 80 random bits), each usable once.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { recoveryCodes } from './table.ts'

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
export function replaceRecoveryCodes(tx: Tx, userId: string, now: number): string[] {
  tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run()
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode)
  tx.insert(recoveryCodes).values(codes.map((code) => ({ id: prefixedId('rcv'), userId, codeHash: hashCode(userId, code), createdAt: now }))).run()
  return codes
}

/** Marks the code used if it is an unused code of the user; false otherwise. */
export function useRecoveryCode(tx: Tx, userId: string, code: string, now: number): boolean {
  const used = tx
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(userId, code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id })
    .all()
  return used.length === 1
}

export function remainingRecoveryCodes(db: Db, userId: string): number {
  return db.select({ n: sql<number>`count(*)` }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))).get()!.n
}

export function deleteRecoveryCodes(tx: Tx, userId: string): void {
  tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run()
}
