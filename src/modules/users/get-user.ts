// TRANSITIONAL (issue 13): the drizzle row type, for the callers not yet ported (test seeding, and
// auth's retired sign-in.ts). Use UserRow from index.ts (snake_case). Removed with drizzle.
import type { users } from './table.ts'

/** @deprecated TRANSITIONAL (issue 13): the drizzle row; use UserRow from index.ts (snake_case). */
export type UserRow = typeof users.$inferSelect
