// A user's MFA factors: which methods are on, and reading or writing one factor row.
import { and, eq, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/tx.ts'
import { MFA_METHODS, mfaFactors, type MfaMethod } from './table.ts'
import { acceptTotp, unsealSecret } from './totp.ts'

export type FactorRow = typeof mfaFactors.$inferSelect

/** The confirmed methods of a user, in a fixed order (totp, then sms). */
export function confirmedMethods(db: Db, userId: string): MfaMethod[] {
  const rows = db
    .select({ method: mfaFactors.method })
    .from(mfaFactors)
    .where(and(eq(mfaFactors.userId, userId), isNotNull(mfaFactors.confirmedAt)))
    .all()
  return MFA_METHODS.filter((method) => rows.some((row) => row.method === method))
}

export function findFactor(db: Db, userId: string, method: MfaMethod): FactorRow | undefined {
  return db.select().from(mfaFactors).where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.method, method))).get()
}

/** The factor row to hold an enrollment: the existing one, or a new empty one. */
export function ensureFactor(db: Db, user: { id: string; organizationId: string }, method: MfaMethod, now: number): FactorRow {
  const existing = findFactor(db, user.id, method)
  if (existing) return existing
  return db.insert(mfaFactors).values({ userId: user.id, method, organizationId: user.organizationId, createdAt: now, updatedAt: now }).returning().get()
}

/**
 * Whether `code` is a current code of the user's confirmed authenticator; a match is spent (its time
 * step recorded), so the same code is refused the next time. Used at sign-in and for step-up.
 */
export function useTotpCode(tx: Db, masterKey: Uint8Array, userId: string, code: string, now: number): boolean {
  const factor = findFactor(tx, userId, 'totp')
  if (!factor?.secretEncrypted || factor.confirmedAt === null) return false
  const step = acceptTotp(unsealSecret(masterKey, factor.secretEncrypted, userId), code.trim(), now, factor.lastStep)
  if (step === undefined) return false
  tx.update(mfaFactors).set({ lastStep: step }).where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.method, 'totp'))).run()
  return true
}
