// The agent status lifecycle (research §2.3) as a table: which activity may follow which, and how.
// `login` and `logout` are POST /agents/me/login and /logout (a PUT of `offline` is a logout too);
// `set` is PUT /agents/{id}/status; `capacity` is the load rule (capacity.ts); `idle` the cron loop.
// Custom activities behave alike: entered from available or busy, left to available (or offline).
import { AppError } from '../../errors.ts'
import { type BuiltInStatus, isBuiltIn } from './activities.ts'

export type Way = 'login' | 'set' | 'capacity' | 'logout' | 'idle'
/** A status as the table sees it: a built-in activity, or any custom one. */
export type StatusKind = BuiltInStatus | 'custom'

const OUT: readonly Way[] = ['logout', 'idle']

export const AGENT_TRANSITIONS: Record<StatusKind, Partial<Record<StatusKind, readonly Way[]>>> = {
  offline: { available: ['login'] },
  // Capacity moves only an agent in an available activity to busy, and back to that activity.
  available: { busy: ['set', 'capacity'], break: ['set'], wrap_up: ['set'], custom: ['set'], offline: OUT },
  busy: { available: ['set', 'capacity'], break: ['set'], wrap_up: ['set'], custom: ['set', 'capacity'], offline: OUT },
  break: { available: ['set'], offline: OUT },
  // After a call or a conversation: ended by the agent (or a supervisor); no timer.
  wrap_up: { available: ['set'], offline: OUT },
  custom: { available: ['set'], busy: ['capacity'], offline: OUT },
}

export function kindOf(status: string): StatusKind {
  return isBuiltIn(status) ? status : 'custom'
}

/** Whether `from -> to` may happen by `way` (staying in a status is no transition). */
export function mayTransition(from: string, to: string, way: Way): boolean {
  return AGENT_TRANSITIONS[kindOf(from)][kindOf(to)]?.includes(way) ?? false
}

/** 409 INVALID_STATE_TRANSITION naming both statuses unless the table allows `from -> to` by `way`. */
export function assertTransition(from: string, to: string, way: Way): void {
  if (mayTransition(from, to, way)) return
  if (from === 'offline')
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      `An offline agent cannot become ${to}: it logs in first (POST /api/v1/agents/me/login), which makes it available`,
    )
  const next = Object.entries(AGENT_TRANSITIONS[kindOf(from)])
    .filter(([, ways]) => ways.includes('set') || ways.includes('logout'))
    .map(([kind]) => (kind === 'custom' ? 'a custom activity' : kind))
  throw new AppError('INVALID_STATE_TRANSITION', `An agent in ${from} cannot become ${to}; it can become ${next.join(', ')}`)
}
