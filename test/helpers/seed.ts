// Seeds an organization with one user of each role, each with a live session and tokens, without
// going through the login endpoint (so tests pay for one password hash, not five).
import { write } from '../../src/db/tx.ts'
import { ROLES, type Role } from '../../src/modules/access/permissions.ts'
import { hashPassword } from '../../src/modules/auth/password.ts'
import { mintTokens, openSession } from '../../src/modules/auth/sessions.ts'
import { createOrganization, type OrganizationRow } from '../../src/modules/organizations/service.ts'
import { insertUser } from '../../src/modules/users/create-user.ts'
import type { UserRow } from '../../src/modules/users/get-user.ts'
import type { TestApp } from './app.ts'

export const PASSWORD = 'correct horse battery staple'

export interface SeededUser {
  user: UserRow
  accessToken: string
  refreshToken: string
  /** Headers that authenticate as this user. */
  auth: { authorization: string }
}

export interface SeededOrg {
  org: OrganizationRow
  users: Record<Role, SeededUser>
}

let hash: Promise<string> | undefined

/** Signs in `user` as the login endpoint would (a new session), returning its tokens. */
export async function signIn(app: TestApp, user: UserRow): Promise<SeededUser> {
  const pending = write(app.deps.db, (tx) => openSession(tx, app.deps, user, { ip: '127.0.0.1', userAgent: 'test' }, app.clock.now()))
  const tokens = await mintTokens(app.deps.keyring, pending)
  return { user, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, auth: { authorization: `Bearer ${tokens.access_token}` } }
}

export async function seedOrganization(app: TestApp, slug = 'acme'): Promise<SeededOrg> {
  const passwordHash = await (hash ??= hashPassword(PASSWORD))
  const now = app.clock.now()
  const { org, rows } = write(app.deps.db, (tx) => {
    const org = createOrganization(tx, { name: slug.toUpperCase(), plan: 'professional' }, now)
    const rows = ROLES.map((role) => insertUser(tx, { organizationId: org.id, email: `${role}@${slug}.test`, name: `${role} of ${slug}`, role, passwordHash }, now))
    return { org, rows }
  })
  const users = {} as Record<Role, SeededUser>
  for (const user of rows) users[user.role] = await signIn(app, user)
  return { org, users }
}
