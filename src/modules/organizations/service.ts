// Organization verbs: create (CLI and first start) and look up.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/tx.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import { organizations, type Plan } from './table.ts'

export type OrganizationRow = typeof organizations.$inferSelect

export function createOrganization(db: Db, input: { name: string; plan: Plan }, now: number): OrganizationRow {
  const row: OrganizationRow = {
    id: prefixedId('org'),
    name: input.name,
    plan: input.plan,
    settings: {},
    allowedIps: [],
    maxConcurrentSessions: null,
    sessionLimitPolicy: 'evict_oldest',
    mfaRequired: false,
    rateLimitPerMinute: null,
    rateLimitPerDay: null,
    createdAt: now,
    updatedAt: now,
  }
  db.insert(organizations).values(row).run()
  return row
}

export function findOrganization(db: Db, id: string): OrganizationRow | undefined {
  return db.select().from(organizations).where(eq(organizations.id, id)).get()
}

export function organizationJson(row: OrganizationRow) {
  return { id: row.id, name: row.name, plan: row.plan, settings: row.settings, created_at: isoTime(row.createdAt), updated_at: isoTime(row.updatedAt) }
}
