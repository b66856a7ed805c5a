// The users' verbs: create (API, CLI and first start) and change or disable one, each with its event
// (user.created, user.updated, user.deleted) in the same transaction.
import type { Ctx, UserActor } from '../../context.ts'
import type { Queries, Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { searchKey } from '../../lib/search-key.ts'
import type { Role } from '../access/index.ts'
import { hashPassword } from '../../lib/password.ts'
import { recordChange } from '../events/index.ts'
import { assertCanAssign, assertCanManage, assertNotLastSuperAdmin } from './rules.ts'
import { findUserByNormalizedEmail, insertUserRow, lockUserInOrg, saveUser, type UserRow } from './store.ts'
import type { UserStatus } from './table.ts'
import { normalizeEmail, userJson } from './user-json.ts'

/** The user with this e-mail (any case, any organization: e-mails are unique across the installation). */
export async function findUserByEmail(db: Queries, email: string): Promise<UserRow | undefined> {
  return findUserByNormalizedEmail(db, normalizeEmail(email))
}

export interface NewUser {
  organizationId: string
  email: string
  name: string
  password: string
  role: Role
}

/**
 * Inside the caller's transaction, with the password already hashed (hashing stays outside): the user
 * and its user.created event, recorded as done by `ctx.actor` (a user, the CLI, or the first start).
 */
export async function insertUser(
  tx: Tx,
  ctx: Ctx,
  input: Omit<NewUser, 'password'> & { passwordHash: string },
  now: number,
): Promise<UserRow> {
  const email = normalizeEmail(input.email)
  // Invariant: e-mails are unique. Two creations at once both pass this check; users_email_unique refuses
  // the second insert and the whole block runs again (db/retry.ts), when this check finds the winner: 409.
  if (await findUserByNormalizedEmail(tx, email)) throw new AppError('CONFLICT', 'A user with this e-mail already exists')
  const name = input.name.trim()
  const row: UserRow = {
    id: prefixedId('usr'),
    organization_id: input.organizationId,
    email,
    name,
    name_key: searchKey(name),
    role: input.role,
    status: 'active',
    password_hash: input.passwordHash,
    created_at: now,
    updated_at: now,
  }
  await insertUserRow(tx, row)
  await recordChange(tx, ctx, {
    type: 'user.created',
    organizationId: row.organization_id,
    target: { type: 'user', id: row.id },
    data: { user: userJson(row) },
    details: { role: row.role },
    now,
  })
  return row
}

export async function createUser(ctx: Ctx, input: NewUser): Promise<UserRow> {
  const now = ctx.clock.now()
  const passwordHash = await hashPassword(input.password)
  return ctx.db.write('user.create', (tx) => insertUser(tx, ctx, { ...input, passwordHash }, now))
}

export interface UserChanges {
  name?: string
  role?: Role
  status?: UserStatus
}

/**
 * Name, role and status changes under the management rules. Disabling (status "disabled") keeps the
 * user and its history, ends its sessions (remembered as revoked once committed) and is user.deleted.
 */
export async function updateUser(ctx: Ctx<UserActor>, input: { id: string; changes: UserChanges }): Promise<UserRow> {
  const { actor } = ctx
  const { changes } = input
  const now = ctx.clock.now()
  return ctx.db.write('user.update', async (tx) => {
    // Invariant: no change is lost (a rename must not write back the status a disable just changed).
    const target = await lockUserInOrg(tx, actor.organizationId, input.id)
    assertCanManage(actor, target)
    if (changes.role !== undefined && changes.role !== target.role) assertCanAssign(actor, changes.role)
    const next = { name: changes.name?.trim() ?? target.name, role: changes.role ?? target.role, status: changes.status ?? target.status }
    if (next.status === 'disabled' && target.status !== 'disabled' && target.id === actor.userId) {
      throw new AppError('CONFLICT', 'You cannot disable your own account')
    }
    await assertNotLastSuperAdmin(tx, target, next)
    const changed = (['name', 'role', 'status'] as const).filter((field) => next[field] !== target[field])
    if (changed.length === 0) return target
    const user = await saveUser(tx, target.id, { ...next, name_key: searchKey(next.name), updated_at: now })
    const disabled = changed.includes('status') && next.status === 'disabled'
    if (disabled) {
      await ctx.userSessions.endAll(ctx, tx, user.id, 'user_disabled', now)
    }
    const details: Record<string, unknown> = { changed }
    if (changed.includes('role')) details.role = { from: target.role, to: user.role }
    if (changed.includes('status')) details.status = { from: target.status, to: user.status }
    const type = disabled ? 'user.deleted' : 'user.updated'
    await recordChange(tx, ctx, {
      type,
      organizationId: user.organization_id,
      target: { type: 'user', id: user.id },
      data: { user: userJson(user), changed },
      details,
      now,
    })
    return user
  })
}
