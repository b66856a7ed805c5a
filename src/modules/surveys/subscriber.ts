// The automatic offers, an EventSubscriber (ports.ts) of recordChange: on ticket.resolved and
// engagement.closed, the surveys the organization's settings name are offered in the transaction of
// the event, capturing the subject's contact, agent, team and channel from the event's data. A subject
// that has a survey of a type already (a ticket solved again) gets no second one of it. Their links are
// issued by POST /api/v1/surveys/{id}/link (no token is kept in clear).
import type { Config } from '../../config.ts'
import type { EventSubscriber } from '../../ports.ts'
import { offerInTx } from './offer.ts'
import { surveySettingsOf } from './survey-settings.ts'
import { findSurveyOfSubject, type SubjectFacts } from './store.ts'
import type { SubjectType, SurveyType } from './table.ts'

interface Subject {
  type: SubjectType
  id: string
  facts: SubjectFacts
}

type Data = Record<string, Record<string, unknown> | undefined>

const text = (value: unknown) => (typeof value === 'string' ? value : null)

function subjectOf(type: string, data: Data): Subject | undefined {
  const object = type === 'ticket.resolved' ? data.ticket : data.engagement
  const id = text(object?.id)
  if (!object || !id) return undefined
  return {
    type: type === 'ticket.resolved' ? 'ticket' : 'engagement',
    id,
    facts: {
      contact_id: text(object.contact_id),
      agent_id: text(object.assignee_id),
      team: text(object.team),
      channel: text(object.channel),
    },
  }
}

export function surveyOffersSubscriber(config: Config): EventSubscriber {
  return async (tx, event) => {
    if (event.type !== 'ticket.resolved' && event.type !== 'engagement.closed') return
    const settings = await surveySettingsOf(tx, event.organizationId)
    if (settings.on_ticket_solved.length === 0 && Object.keys(settings.on_engagement_closed).length === 0) return
    const subject = subjectOf(event.type, (JSON.parse(event.body) as { data: Data }).data)
    if (!subject) return
    const types: SurveyType[] =
      subject.type === 'ticket' ? settings.on_ticket_solved : (settings.on_engagement_closed[subject.facts.channel ?? ''] ?? [])
    for (const surveyType of types) {
      if (await findSurveyOfSubject(tx, event.organizationId, subject, surveyType)) continue
      await offerInTx(tx, {
        organizationId: event.organizationId,
        surveyType,
        subjectType: subject.type,
        subjectId: subject.id,
        facts: subject.facts,
        questions: [],
        createdBy: `system:${event.type}`,
        now: event.createdAt,
        expiryMs: config.surveyExpiryMs,
      })
    }
  }
}
