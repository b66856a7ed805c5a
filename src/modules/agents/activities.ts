// Activities: what an agent's `status` may be. Five are built in (research §2.3); an organization adds
// its own, each with an `available` flag that never changes (Twilio TaskRouter's rule), so an agent's
// copy of the flag never goes stale.
import type { Queries, Tx } from '../../db/database.ts'
import { isoTime } from '../../lib/clock.ts'
import { findCustomActivity, lockCustomActivity } from './store.ts'
import type { AgentActivitiesTable } from './table.ts'

export const BUILT_IN_ACTIVITIES = [
  { key: 'offline', name: 'Offline', available: false },
  { key: 'available', name: 'Available', available: true },
  { key: 'busy', name: 'Busy', available: false },
  { key: 'break', name: 'Break', available: false },
  { key: 'wrap_up', name: 'Wrap-up', available: false },
] as const

export type BuiltInStatus = (typeof BUILT_IN_ACTIVITIES)[number]['key']
export const BUILT_IN_STATUSES = BUILT_IN_ACTIVITIES.map((a) => a.key) as BuiltInStatus[]

/** Most custom activities an organization may have. */
export const MAX_CUSTOM_ACTIVITIES = 50

export interface Activity {
  key: string
  name: string
  available: boolean
  built_in: boolean
  created_at: string | null
}

export function isBuiltIn(key: string): key is BuiltInStatus {
  return (BUILT_IN_STATUSES as string[]).includes(key)
}

export function builtInActivity(key: BuiltInStatus): Activity {
  const found = BUILT_IN_ACTIVITIES.find((a) => a.key === key)!
  return { key: found.key, name: found.name, available: found.available, built_in: true, created_at: null }
}

export function customActivity(row: AgentActivitiesTable): Activity {
  return {
    key: row.activity_key,
    name: row.name,
    available: Boolean(row.available),
    built_in: false,
    created_at: isoTime(Number(row.created_at)),
  }
}

/** The activity `key` of the organization (built in or its own), or undefined. */
export async function findActivity(db: Queries, organizationId: string, key: string): Promise<Activity | undefined> {
  if (isBuiltIn(key)) return builtInActivity(key)
  const row = await findCustomActivity(db, organizationId, key)
  return row && customActivity(row)
}

/** As findActivity, a custom activity's row locked: an agent never enters an activity being deleted. */
export async function activityInTx(tx: Tx, organizationId: string, key: string): Promise<Activity | undefined> {
  if (isBuiltIn(key)) return builtInActivity(key)
  const row = await lockCustomActivity(tx, organizationId, key)
  return row && customActivity(row)
}
