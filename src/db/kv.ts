// system_kv: small installation-wide values (probes, generated secrets) keyed by name.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const systemKv = sqliteTable('system_kv', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
})
