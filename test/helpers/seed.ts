// Seeds an organization with one user of each role, each with a live session and tokens, without
// going through the login endpoint (so tests pay for one password hash, not five).
import { contextFor } from '../../src/context.ts'
import { ROLES, type Role } from '../../src/modules/access/index.ts'
import { hashPassword, mintTokens, openSession } from '../../src/modules/auth/index.ts'
import { createOrganization, type OrganizationRow } from '../../src/modules/organizations/index.ts'
import { insertUser, type UserRow } from '../../src/modules/users/index.ts'
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
  const context = app.context
  const pending = await context.db.write('test.sign_in', (tx) =>
    openSession(tx, context, {
      subject: user,
      meta: { ip: '127.0.0.1', userAgent: 'test' },
      kind: { authMethods: ['pwd'], mfaEnrollmentOnly: false },
      now: app.clock.now(),
    }),
  )
  const tokens = await mintTokens(context.keys, pending)
  return {
    user,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    auth: { authorization: `Bearer ${tokens.access_token}` },
  }
}

export async function seedOrganization(app: TestApp, slug = 'acme'): Promise<SeededOrg> {
  const passwordHash = await (hash ??= hashPassword(PASSWORD))
  const now = app.clock.now()
  const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
  const { org, rows } = await ctx.db.write('test.seed', async (tx) => {
    const org = await createOrganization(tx, { name: slug.toUpperCase(), plan: 'professional' }, now)
    const rows: UserRow[] = []
    for (const role of ROLES)
      rows.push(
        await insertUser(
          tx,
          ctx,
          { organizationId: org.id, email: `${role}@${slug}.test`, name: `${role} of ${slug}`, role, passwordHash },
          now,
        ),
      )
    return { org, rows }
  })
  const users = {} as Record<Role, SeededUser>
  for (const user of rows) users[user.role] = await signIn(app, user)
  return { org, users }
}
