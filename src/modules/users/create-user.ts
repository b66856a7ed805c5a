// createUser: a new user in an organization (API, CLI and first start), with its user.created event.
import type { AppDatabase } from '../../db/open.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { searchKey } from '../../lib/search-key.ts'
import type { Role } from '../access/permissions.ts'
import type { RequestMeta } from '../../context.ts'
import { audit, type AuditActor } from '../audit/record.ts'
import { hashPassword } from '../auth/password.ts'
import { emit } from '../events/emit.ts'
import { findUserByEmail, normalizeEmail, userJson, type UserRow } from './get-user.ts'
import { users } from './table.ts'

export interface NewUser {
  organizationId: string
  email: string
  name: string
  password: string
  role: Role
}

/** Who created a user, for the audit log: the API caller, or the command line and first start. */
export interface CreatedBy {
  actor: AuditActor
  request?: RequestMeta
}

const BY_OPERATOR: CreatedBy = { actor: { type: 'system', id: 'cli' } }

/** Inside a transaction, with the password already hashed (hashing is async and stays outside). */
export function insertUser(tx: Tx, input: Omit<NewUser, 'password'> & { passwordHash: string }, now: number, by: CreatedBy = BY_OPERATOR): UserRow {
  const email = normalizeEmail(input.email)
  if (findUserByEmail(tx, email)) throw new AppError('CONFLICT', 'A user with this e-mail already exists')
  const row: UserRow = {
    id: prefixedId('usr'),
    organizationId: input.organizationId,
    email,
    name: input.name.trim(),
    nameKey: searchKey(input.name.trim()),
    role: input.role,
    status: 'active',
    passwordHash: input.passwordHash,
    createdAt: now,
    updatedAt: now,
  }
  tx.insert(users).values(row).run()
  emit(tx, { organizationId: row.organizationId, type: 'user.created', data: { user: userJson(row) }, now })
  audit(tx, { organizationId: row.organizationId, actor: by.actor, event: 'user.created', target: { type: 'user', id: row.id }, details: { role: row.role }, request: by.request, now })
  return row
}

export async function createUser(db: AppDatabase, input: NewUser, now: () => number, by?: CreatedBy): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password)
  return write(db, (tx) => insertUser(tx, { ...input, passwordHash }, now(), by))
}
