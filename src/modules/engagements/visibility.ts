// Which sessions an actor sees and works: the whole organization, or for an agent (SCOPES engagement
// 'assigned_or_queued') only those assigned to it and the queued ones nobody has. A session outside that
// is answered exactly like one that does not exist (404); so are its messages.
import type { Actor, UserActor } from '../../context.ts'
import type { Queries, Tx } from '../../db/database.ts'
import type { Condition } from '../../db/list.ts'
import { AppError } from '../../errors.ts'
import { SCOPES } from '../access/index.ts'
import { type EngagementRow, findEngagement, lockEngagement } from './store.ts'

export function worksOnlyOwnSessions(actor: Actor): boolean {
  return actor.kind === 'user' && SCOPES[actor.role]?.engagement === 'assigned_or_queued'
}

/** The actor's visibility as list conditions (the list adds the organization itself). */
export function engagementScope(actor: Actor): Condition[] {
  return actor.kind === 'user' && worksOnlyOwnSessions(actor)
    ? [
        {
          sql: "engagements.assignee_id = ? OR (engagements.assignee_id IS NULL AND engagements.status = 'queued')",
          params: [actor.userId],
        },
      ]
    : []
}

export function maySee(actor: Actor, row: Pick<EngagementRow, 'assignee_id' | 'status'>): boolean {
  if (!worksOnlyOwnSessions(actor)) return true
  if (row.assignee_id === null) return row.status === 'queued'
  return actor.kind === 'user' && row.assignee_id === actor.userId
}

/** The session if the actor may see it; 404 otherwise. */
export async function getVisibleEngagement(db: Queries, actor: UserActor, id: string): Promise<EngagementRow> {
  return visibleOr404(actor, await findEngagement(db, actor.organizationId, id))
}

/** As getVisibleEngagement, for a verb that changes it: the row locked, so its status is read and written as one. */
export async function lockVisibleEngagement(tx: Tx, actor: UserActor, id: string): Promise<EngagementRow> {
  return visibleOr404(actor, await lockEngagement(tx, actor.organizationId, id))
}

function visibleOr404(actor: UserActor, row: EngagementRow | undefined): EngagementRow {
  if (!row || !maySee(actor, row)) throw new AppError('NOT_FOUND', 'No such engagement')
  return row
}

/** 403 when an agent would give a session to another user: it takes sessions only for itself (or "auto"). */
export function assertMayTake(actor: Actor, assigneeId: string | null | undefined): void {
  if (assigneeId === null || assigneeId === undefined || assigneeId === 'auto' || !worksOnlyOwnSessions(actor)) return
  if (actor.kind === 'user' && assigneeId === actor.userId) return
  throw new AppError('INSUFFICIENT_PERMISSIONS', 'An agent takes sessions only for itself: the assignee must be your own user id or "auto"')
}
