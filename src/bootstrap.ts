// First start: on a fresh database, the organization "Default" and its Super Admin (ADMIN_EMAIL,
// ADMIN_PASSWORD or a generated password printed once to stderr). Never again after that.
import { eq } from 'drizzle-orm'
import type { AppDeps } from './context.ts'
import type { Logger } from './lib/log.ts'
import { systemKv } from './db/kv.ts'
import { write } from './db/tx.ts'
import { generatePassword, hashPassword } from './modules/auth/password.ts'
import { createOrganization } from './modules/organizations/service.ts'
import { organizations } from './modules/organizations/table.ts'
import { insertUser } from './modules/users/create-user.ts'

const DONE_KEY = 'bootstrapped_at'

export interface BootstrapResult {
  organizationId: string
  userId: string
  email: string
  /** Only when it was generated (and must be shown once). */
  generatedPassword?: string
}

export async function bootstrap(deps: Pick<AppDeps, 'db' | 'config' | 'clock'>): Promise<BootstrapResult | undefined> {
  const done = () => deps.db.select().from(systemKv).where(eq(systemKv.key, DONE_KEY)).get() !== undefined
  if (done()) return undefined
  const generated = deps.config.adminPassword === undefined ? generatePassword() : undefined
  const passwordHash = await hashPassword(deps.config.adminPassword ?? generated!)
  const now = deps.clock.now()
  return write(deps.db, (tx) => {
    // Checked again under the write lock; a database that already has organizations is not fresh.
    if (done()) return undefined
    const fresh = tx.select({ id: organizations.id }).from(organizations).limit(1).get() === undefined
    tx.insert(systemKv).values({ key: DONE_KEY, value: new Date(now).toISOString(), updatedAt: now }).run()
    if (!fresh) return undefined
    const org = createOrganization(tx, { name: 'Default', plan: 'professional' }, now)
    const user = insertUser(tx, { organizationId: org.id, email: deps.config.adminEmail, name: 'Administrator', role: 'super_admin', passwordHash }, now, { actor: { type: 'system', id: 'first_start' } })
    return { organizationId: org.id, userId: user.id, email: user.email, ...(generated ? { generatedPassword: generated } : {}) }
  })
}

/** Logs what the first start created; a generated password goes to stderr only, never to the log. */
export function announceBootstrap(created: BootstrapResult | undefined, log: Logger, stderr: (text: string) => void): void {
  if (!created) return
  log.info('first start: created the organization "Default" and its Super Admin', { organization_id: created.organizationId, user_id: created.userId, email: created.email })
  if (!created.generatedPassword) return
  stderr(
    `switchboard: first start: created the organization "Default" (${created.organizationId}) and its Super Admin ${created.email}\n` +
      `switchboard: generated password (shown only this once; change it with POST /api/v1/auth/password): ${created.generatedPassword}\n`,
  )
}
