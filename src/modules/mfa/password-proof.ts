// A password given to prove the caller owns the account (MFA removal, step-up): counted against the
// login attempt limit first, then checked, before any transaction (argon2 never runs under the writer).
import type { Ctx, SessionActor } from '../../context.ts'
import { chargePasswordAttempt, verifyPassword } from '../auth/index.ts'
import type { UserRow } from '../users/index.ts'

export async function passwordMatches(ctx: Ctx<SessionActor>, user: UserRow, password: string): Promise<boolean> {
  await chargePasswordAttempt(ctx, ctx.actor.request.ip, user.email)
  return verifyPassword(password, user.password_hash)
}
