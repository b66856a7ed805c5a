// organizations: the tenants; every other tenant table points here.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const PLANS = ['free', 'starter', 'professional', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan', { enum: PLANS }).notNull(),
  /** JSON object of organization settings. */
  settings: text('settings', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})
