// Engagement-session metrics: created, closed, escalated, first response time (to the first reply of
// an agent, the session's first_reply_at) and resolution time (to its close).
import type { Fact } from '../facts.ts'
import type { FoldEvent, MetricFamily } from '../metric.ts'
import { count, duration, ms, seconds } from './shared.ts'

const DIMENSIONS = ['channel', 'agent'] as const

// biome-ignore lint/suspicious/noExplicitAny: an Engagement of the event catalog.
function fact(event: FoldEvent, stream: string, engagement: any, at: number, value: number | null = null): Fact {
  const createdAt = ms(engagement.created_at)!
  const dims = { channel: engagement.channel, agent: engagement.assignee_id ?? null }
  return {
    stream,
    at,
    recordType: 'engagement',
    recordId: engagement.id,
    seq: event.seq,
    value,
    startedAt: value === null ? null : createdAt,
    dims,
  }
}

const metric = { family: 'engagements', records: 'engagements', dimensions: DIMENSIONS, version: 1 } as const

export const ENGAGEMENTS: MetricFamily = {
  metrics: [
    {
      ...metric,
      id: 'engagements.created',
      name: 'Sessions created',
      unit: 'count',
      definition: 'Engagement sessions created in the window.',
      streams: ['engagement.created'],
      value: count('engagement.created'),
    },
    {
      ...metric,
      id: 'engagements.closed',
      name: 'Sessions closed',
      unit: 'count',
      definition: 'Engagement sessions closed in the window.',
      streams: ['engagement.closed'],
      value: count('engagement.closed'),
    },
    {
      ...metric,
      id: 'engagements.escalated',
      name: 'Sessions escalated',
      unit: 'count',
      definition: 'Escalations of engagement sessions in the window (each level counts).',
      streams: ['engagement.escalated'],
      value: count('engagement.escalated'),
    },
    {
      ...metric,
      id: 'engagements.first_response_time',
      name: 'First response time',
      unit: 'seconds',
      definition: "From a session's creation to the first reply of an agent, counted at that reply.",
      streams: ['engagement.first_response'],
      duration: true,
      value: duration('engagement.first_response'),
    },
    {
      ...metric,
      id: 'engagements.resolution_time',
      name: 'Resolution time',
      unit: 'seconds',
      definition: "From a session's creation to its close, counted at the close.",
      streams: ['engagement.closed'],
      duration: true,
      value: duration('engagement.closed'),
    },
  ],
  folders: {
    'engagement.created': (event) => [fact(event, 'engagement.created', event.data.engagement, ms(event.data.engagement.created_at)!)],
    'engagement.closed': (event) => {
      const e = event.data.engagement
      const closedAt = ms(e.closed_at) ?? event.createdAt
      return [fact(event, 'engagement.closed', e, closedAt, seconds(ms(e.created_at)!, closedAt))]
    },
    'engagement.escalated': (event) => [fact(event, 'engagement.escalated', event.data.engagement, event.createdAt)],
    'engagement.message.added': async (event, state) => {
      const e = event.data.engagement
      const replied = ms(e.first_reply_at)
      if (replied === null || (await state.get(`e:${e.id}`))) return []
      state.set(`e:${e.id}`, true)
      return [fact(event, 'engagement.first_response', e, replied, seconds(ms(e.created_at)!, replied))]
    },
  },
}
