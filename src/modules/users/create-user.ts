// createUser: a new user in an organization (API, CLI and first start), with its user.created event.
import type { AppDatabase } from '../../db/open.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { searchKey } from '../../lib/search-key.ts'
import type { Role } from '../access/permissions.ts'
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

/** Inside a transaction, with the password already hashed (hashing is async and stays outside). */
export function insertUser(tx: Tx, input: Omit<NewUser, 'password'> & { passwordHash: string }, now: number): UserRow {
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
  return row
}

export async function createUser(db: AppDatabase, input: NewUser, now: () => number): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password)
  return write(db, (tx) => insertUser(tx, { ...input, passwordHash }, now()))
}
