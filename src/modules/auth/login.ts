// login: e-mail and password -> a new session with its tokens. Unknown e-mail, wrong password and
// disabled user all answer INVALID_CREDENTIALS after the same argon2 work, so none can be told apart.
import type { AppDeps } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { roleGrants } from '../access/match.ts'
import type { Role } from '../access/permissions.ts'
import { findUserByEmail, type UserRow } from '../users/get-user.ts'
import { dummyHash, verifyPassword } from './password.ts'
import { mintTokens, openSession, type SessionMeta } from './sessions.ts'

export function tokenUser(user: UserRow) {
  return { id: user.id, email: user.email, name: user.name, organization_id: user.organizationId, role: user.role, permissions: [...roleGrants(user.role as Role)] }
}

export async function login(deps: AppDeps, input: { email: string; password: string }, meta: SessionMeta) {
  const user = findUserByEmail(deps.db, input.email)
  const matches = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash()))
  if (!user || !matches || user.status !== 'active') throw new AppError('INVALID_CREDENTIALS')
  const now = deps.clock.now()
  const pending = write(deps.db, (tx) => openSession(tx, deps, user, meta, now))
  return { ...(await mintTokens(deps.keyring, pending)), user: tokenUser(user) }
}
