// First start: on a fresh database, the organization "Default" and its Super Admin (ADMIN_EMAIL,
// ADMIN_PASSWORD or a generated password printed once to stderr). Never again after that.
import { type AppContext, contextFor } from './context.ts'
import { getKv } from './db/kv.ts'
import type { Logger } from './lib/log.ts'
import { generatePassword, hashPassword } from './modules/auth/index.ts'
import { anyOrganization, createOrganization } from './modules/organizations/index.ts'
import { insertUser } from './modules/users/index.ts'

const DONE_KEY = 'bootstrapped_at'

// The first start is claimed by writing its marker, one statement: of instances starting at once on an
// empty database, the one whose INSERT wrote the row creates the organization and its Super Admin; the
// others' INSERT finds the row (on PostgreSQL after waiting for the winner's commit) and they do nothing.
const CLAIM_FIRST_START = 'INSERT INTO system_kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING'

export interface BootstrapResult {
  organizationId: string
  userId: string
  email: string
  /** Only when it was generated (and must be shown once). */
  generatedPassword?: string
}

export async function bootstrap(app: AppContext): Promise<BootstrapResult | undefined> {
  if ((await getKv(app.db, DONE_KEY)) !== undefined) return undefined
  const ctx = contextFor(app, { kind: 'system', id: 'first_start' })
  const generated = app.config.adminPassword === undefined ? generatePassword() : undefined
  // Hashed before the transaction: every other write would wait for argon2 otherwise.
  const passwordHash = await hashPassword(app.config.adminPassword ?? generated!)
  const now = ctx.clock.now()
  return app.db.write('first-start', async (tx) => {
    // Exactly one first start: the marker written here, or another process's found. A database that
    // already has organizations is not fresh (marked, nothing created).
    if ((await tx.raw.run(CLAIM_FIRST_START, [DONE_KEY, new Date(now).toISOString(), now])) === 0) return undefined
    if (await anyOrganization(tx)) return undefined
    const org = await createOrganization(tx, { name: 'Default', plan: 'professional' }, now)
    const user = await insertUser(
      tx,
      ctx,
      { organizationId: org.id, email: app.config.adminEmail, name: 'Administrator', role: 'super_admin', passwordHash },
      now,
    )
    return { organizationId: org.id, userId: user.id, email: user.email, ...(generated ? { generatedPassword: generated } : {}) }
  })
}

/** Logs what the first start created; a generated password goes to stderr only, never to the log. */
export function announceBootstrap(created: BootstrapResult | undefined, log: Logger, stderr: (text: string) => void): void {
  if (!created) return
  log.info('first start: created the organization "Default" and its Super Admin', {
    organization_id: created.organizationId,
    user_id: created.userId,
    email: created.email,
  })
  if (!created.generatedPassword) return
  stderr(
    `switchboard: first start: created the organization "Default" (${created.organizationId}) and its Super Admin ${created.email}\n` +
      `switchboard: generated password (shown only this once; change it with POST /api/v1/auth/password): ${created.generatedPassword}\n`,
  )
}
