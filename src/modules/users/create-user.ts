// TRANSITIONAL (issue 13): the synchronous (drizzle) insertUser for test seeding until it is ported;
// the new insertUser/createUser are in service.ts, through index.ts. Removed with drizzle.
import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { searchKey } from '../../lib/search-key.ts'
import type { Role } from '../access/index.ts'
import { type AuditActor, audit } from '../audit/index.ts'
import { emit } from '../events/emit.ts'
import type { UserRow } from './get-user.ts'
import { users } from './table.ts'
import { normalizeEmail, userJson } from './user-json.ts'

/** @deprecated TRANSITIONAL (issue 13): use insertUser from index.ts (async, in a Database.write transaction). */
export function insertUser(
  tx: Tx,
  input: { organizationId: string; email: string; name: string; role: Role; passwordHash: string },
  now: number,
  by: { actor: AuditActor } = { actor: { type: 'system', id: 'cli' } },
): UserRow {
  const email = normalizeEmail(input.email)
  if (tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) throw new AppError('CONFLICT', 'A user with this e-mail already exists')
  const name = input.name.trim()
  const row: UserRow = {
    id: prefixedId('usr'),
    organizationId: input.organizationId,
    email,
    name,
    nameKey: searchKey(name),
    role: input.role,
    status: 'active',
    passwordHash: input.passwordHash,
    createdAt: now,
    updatedAt: now,
  }
  tx.insert(users).values(row).run()
  const json = userJson({ ...row, organization_id: row.organizationId, name_key: row.nameKey, password_hash: row.passwordHash, created_at: now, updated_at: now })
  emit(tx, { organizationId: row.organizationId, type: 'user.created', data: { user: json }, now })
  audit(tx, { organizationId: row.organizationId, actor: by.actor, event: 'user.created', target: { type: 'user', id: row.id }, details: { role: row.role }, now })
  return row
}
