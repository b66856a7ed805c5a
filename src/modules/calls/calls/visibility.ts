// Which calls an actor sees and handles: the whole organization, or for an agent (SCOPES) only the
// calls assigned to it and the unassigned ones. A call outside that is answered exactly like one that
// does not exist (404).
import type { Actor, UserActor } from '../../../context.ts'
import type { Queries, Tx } from '../../../db/database.ts'
import type { Condition } from '../../../db/list.ts'
import { AppError } from '../../../errors.ts'
import { SCOPES } from '../../access/index.ts'
import { type CallRow, findCall, lockCall } from './store.ts'

/** True for an agent: it sees and handles only its own and unassigned calls, and takes calls only for itself. */
export function handlesOnlyOwnCalls(actor: Actor): boolean {
  return actor.kind === 'user' && SCOPES[actor.role]?.call === 'assigned_or_unassigned'
}

/** The actor's visibility as list conditions (the list adds the organization itself). */
export function callScope(actor: Actor): Condition[] {
  return actor.kind === 'user' && handlesOnlyOwnCalls(actor)
    ? [{ sql: '(calls.agent_id = ? OR calls.agent_id IS NULL)', params: [actor.userId] }]
    : []
}

export function maySeeCall(actor: Actor, call: Pick<CallRow, 'agent_id'>): boolean {
  return !handlesOnlyOwnCalls(actor) || call.agent_id === null || (actor.kind === 'user' && call.agent_id === actor.userId)
}

/** The call if the actor may see it; 404 otherwise. */
export async function getVisibleCall(db: Queries, actor: UserActor, id: string): Promise<CallRow> {
  return visibleOr404(actor, await findCall(db, actor.organizationId, id))
}

/** As getVisibleCall, for a verb that changes the call: its row locked, so its status is read and written as one. */
export async function lockVisibleCall(tx: Tx, actor: UserActor, id: string): Promise<CallRow> {
  return visibleOr404(actor, await lockCall(tx, actor.organizationId, id))
}

function visibleOr404(actor: UserActor, call: CallRow | undefined): CallRow {
  if (!call || !maySeeCall(actor, call)) throw new AppError('NOT_FOUND', 'No such call')
  return call
}
