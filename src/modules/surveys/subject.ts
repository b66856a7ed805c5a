// A survey's subject as the caller sees it: the owning module (tickets, engagements, calls) decides by its
// own visibility rule, so an agent reaches only the subjects its GET routes would show it.
import type { UserActor } from '../../context.ts'
import type { Queries } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { getVisibleCall } from '../calls/index.ts'
import { getVisibleEngagement } from '../engagements/index.ts'
import { getVisibleTicket } from '../tickets/index.ts'
import type { SubjectFacts } from './store.ts'
import type { SubjectType } from './table.ts'

const FACTS_OF: Record<SubjectType, (db: Queries, actor: UserActor, id: string) => Promise<SubjectFacts>> = {
  ticket: async (db, actor, id) => {
    const ticket = await getVisibleTicket(db, actor, id)
    return { contact_id: ticket.contact_id, agent_id: ticket.assignee_id, team: null, channel: ticket.channel }
  },
  engagement: async (db, actor, id) => {
    const session = await getVisibleEngagement(db, actor, id)
    return { contact_id: session.contact_id, agent_id: session.assignee_id, team: session.team, channel: session.channel }
  },
  call: async (db, actor, id) => {
    const call = await getVisibleCall(db, actor, id)
    return { contact_id: call.contact_id, agent_id: call.agent_id, team: call.queue, channel: 'voice' }
  },
}

/**
 * What an offer captures of the subject (its contact, agent, team and channel), or undefined when the
 * subject is missing, another organization's, or one the caller may not see: the caller then answers
 * the same 404 in all three cases. `db` is the transaction when the verb writes.
 */
export async function visibleSubjectFacts(db: Queries, actor: UserActor, type: SubjectType, id: string): Promise<SubjectFacts | undefined> {
  try {
    return await FACTS_OF[type](db, actor, id)
  } catch (error) {
    // The owning module says "not yours" as a 404; anything else is a real failure.
    if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined
    throw error
  }
}
