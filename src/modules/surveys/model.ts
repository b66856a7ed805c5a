// Request and response schemas of the surveys endpoints (the SurveyResponse component), and the public
// link's.
import { type TOptional, Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { oneOf } from '../../http/schema.ts'
import { SURVEY_STATUSES } from './lifecycle.ts'
import { SURVEY_LIST } from './store.ts'
import { SUBJECT_TYPES, SURVEY_TYPES } from './table.ts'

const Id = t.String({ minLength: 1, maxLength: 64 })
const Time = t.String({ format: 'date-time' })
const Question = t.String({ minLength: 1, maxLength: 500, pattern: '\\S' })

export const SURVEY_RESPONSE_EXAMPLE = {
  id: 'srv_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  survey_type: 'csat',
  subject_type: 'ticket',
  subject_id: 'tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  contact_id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  agent_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  team: null,
  channel: 'email',
  status: 'responded',
  score: 5,
  comment: 'Quick and friendly.',
  reason_code: null,
  questions: [],
  answers: [],
  offered_at: '2026-01-15T09:30:00.000Z',
  responded_at: '2026-01-15T10:02:11.000Z',
  expires_at: '2026-01-22T09:30:00.000Z',
  editable_until: '2026-01-16T10:02:11.000Z',
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-15T10:02:11.000Z',
}

export const SurveyResponseBody = t.Object(
  {
    id: t.String(),
    survey_type: oneOf(SURVEY_TYPES),
    subject_type: oneOf(SUBJECT_TYPES),
    subject_id: t.String(),
    contact_id: t.Nullable(t.String()),
    agent_id: t.Nullable(t.String({ description: "The subject's agent when offered" })),
    team: t.Nullable(t.String({ description: "The subject's team when offered (a call's queue)" })),
    channel: t.Nullable(t.String()),
    status: oneOf(SURVEY_STATUSES),
    score: t.Nullable(Type.Integer({ description: 'csat 1-5, nps 0-10, ces 1-7' })),
    comment: t.Nullable(t.String()),
    reason_code: t.Nullable(t.String()),
    questions: t.Array(t.String()),
    answers: t.Array(t.String()),
    offered_at: Time,
    responded_at: t.Nullable(Time),
    expires_at: Time,
    editable_until: t.Nullable(Time),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'SurveyResponse', examples: [SURVEY_RESPONSE_EXAMPLE] },
)

export const OfferedSurveyBody = t.Object({
  response: SurveyResponseBody,
  url: t.String({ description: 'The public one-time link, PUBLIC_URL/s/{token}: shown this once (only its hash is kept)' }),
})

export const CreateSurveyBody = t.Object(
  {
    survey_type: oneOf(SURVEY_TYPES),
    subject_type: oneOf(SUBJECT_TYPES),
    subject_id: Id,
    questions: t.Optional(t.Array(Question, { maxItems: 10, description: 'Extra free-text questions, answered in answers[]' })),
  },
  { examples: [{ survey_type: 'csat', subject_type: 'ticket', subject_id: 'tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ' }] },
)

/** The engagement channels (engagements module). */
const CHANNELS = ['chat', 'email', 'sms', 'voice', 'social', 'api'] as const

const Types = t.Array(oneOf(SURVEY_TYPES), { maxItems: 3 })

export const SurveySettingsBody = t.Object({
  on_ticket_solved: t.Array(oneOf(SURVEY_TYPES), { description: 'Offered when a ticket becomes solved' }),
  on_engagement_closed: t.Record(t.String(), t.Array(oneOf(SURVEY_TYPES)), {
    description: 'Per engagement channel: offered when a session on it closes',
  }),
  updated_at: t.Nullable(Time),
})

export const UpdateSurveySettingsBody = t.Object(
  {
    on_ticket_solved: t.Optional(Types),
    on_engagement_closed: t.Optional(
      t.Object(
        Object.fromEntries(CHANNELS.map((channel) => [channel, t.Optional(Types)])) as Record<
          (typeof CHANNELS)[number],
          TOptional<typeof Types>
        >,
        {
          additionalProperties: false,
          minProperties: 1,
          description: "Replaces the channels named (an empty list turns that channel's offers off); the others stay",
        },
      ),
    ),
  },
  { minProperties: 1, examples: [{ on_ticket_solved: ['csat'], on_engagement_closed: { chat: ['csat'], email: ['nps'] } }] },
)

export const SurveyIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

const TimeFilter = (description: string) => t.Optional(t.String({ format: 'date-time', description: `RFC 3339; ${description}` }))

export const SurveyFilterQuery = {
  survey_type: t.Optional(oneOf(SURVEY_TYPES)),
  subject_type: t.Optional(oneOf(SUBJECT_TYPES)),
  subject_id: t.Optional(Id),
  status: t.Optional(oneOf(SURVEY_STATUSES)),
  agent_id: t.Optional(Id),
  team: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  channel: t.Optional(t.String({ minLength: 1, maxLength: 40 })),
  score_min: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
  score_max: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
}

export const SurveyListQuery = t.Object({
  ...SurveyFilterQuery,
  offered_after: TimeFilter('only offers made after it'),
  offered_before: TimeFilter('only offers made before it'),
  responded_after: TimeFilter('only responses recorded after it'),
  responded_before: TimeFilter('only responses recorded before it'),
  ...pagingQuery(SURVEY_LIST.sorts),
})

export const SurveyList = listResponse('survey_responses', SurveyResponseBody)

const DateOnly = t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD in time_zone' })

export const SurveyMetricsQuery = t.Object({
  ...SurveyFilterQuery,
  from: t.Optional({ ...DateOnly, description: 'First day (YYYY-MM-DD, in time_zone) of the offers counted' }),
  to: t.Optional({ ...DateOnly, description: 'Last day (YYYY-MM-DD, in time_zone, included) of the offers counted' }),
  time_zone: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of from and to; default UTC' })),
})

const Stat = (description: string) =>
  t.Nullable(t.Number({ description: `${description}; rounded to 1 decimal place; null without responses` }))

const TypeMetrics = t.Object({
  offered: Type.Integer({ description: 'Offers made in the window (every status)' }),
  responded: Type.Integer(),
  response_rate: t.Nullable(t.Number({ description: 'responded / offered in %, rounded to 1 decimal place; null without offers' })),
})

export const SurveyMetricsBody = t.Object({
  from: t.Nullable(Time),
  to: t.Nullable(Time),
  time_zone: t.String(),
  csat: t.Object({ ...TypeMetrics.properties, percent_satisfied: Stat('Responses scoring 4 or 5, in %') }),
  nps: t.Object({ ...TypeMetrics.properties, nps: Stat('% promoters (9-10) minus % detractors (0-6), from -100 to 100') }),
  ces: t.Object({ ...TypeMetrics.properties, average: Stat('Mean score, 1-7') }),
})

export const PublicSurveyBody = t.Object({
  survey_type: oneOf(SURVEY_TYPES),
  scale: t.Object({ min: Type.Integer(), max: Type.Integer() }),
  questions: t.Array(t.String()),
  status: oneOf(SURVEY_STATUSES),
  score: t.Nullable(Type.Integer()),
  comment: t.Nullable(t.String()),
  editable_until: t.Nullable(Time),
})

export const PublicAnswerBody = t.Object({
  score: Type.Integer({ description: 'On the scale of the survey type' }),
  comment: t.Optional(t.Nullable(t.String({ maxLength: 2000 }))),
  reason_code: t.Optional(t.Nullable(t.String({ maxLength: 100 }))),
  answers: t.Optional(t.Array(t.String({ maxLength: 2000 }), { description: 'One per question, in order' })),
})
