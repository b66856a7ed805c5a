// Call metrics, counted when a call ends (so a figure never changes once the call is over), at the time
// the call began: offered, answered, abandoned (ended unanswered: the caller hung up or nobody answered),
// service level, speed of answer, handle time. Calls have no wrap-up phase of their own: an agent's
// after-call work shows as time in `wrap_up` (agents.status_time).
import type { Fact } from '../facts.ts'
import type { FoldEvent, MetricFamily } from '../metric.ts'
import { atMost, count, duration, ms, ratio } from './shared.ts'

const DIMENSIONS = ['direction', 'queue', 'agent'] as const
const TERMINAL = new Set(['completed', 'no_answer', 'busy', 'failed', 'canceled', 'rejected'])
const ABANDONED = new Set(['no_answer', 'canceled'])

// biome-ignore lint/suspicious/noExplicitAny: a Call of the event catalog.
function ended(event: FoldEvent, call: any): Fact[] {
  const at = ms(call.initialized_at)!
  const base = { at, recordType: 'call', recordId: call.id, seq: event.seq, startedAt: at }
  const dims = { direction: call.direction, queue: call.queue ?? null, agent: call.agent_id ?? null }
  const wait = call.wait_seconds ?? null
  const facts: Fact[] = [{ ...base, stream: 'call.offered', value: wait, dims }]
  if (call.answered_at !== null) {
    facts.push({ ...base, stream: 'call.answered', value: wait, dims })
    facts.push({ ...base, stream: 'call.handled', value: call.talk_seconds ?? 0, startedAt: ms(call.answered_at), dims })
  } else if (ABANDONED.has(call.status)) facts.push({ ...base, stream: 'call.abandoned', value: wait, dims })
  return facts
}

const metric = { family: 'calls', records: 'calls', dimensions: DIMENSIONS, version: 1 } as const

export const CALLS: MetricFamily = {
  metrics: [
    {
      ...metric,
      id: 'calls.offered',
      name: 'Calls offered',
      unit: 'count',
      definition: 'Calls that ended, by the time they began (inbound and outbound; filter by `direction`).',
      streams: ['call.offered'],
      value: count('call.offered'),
    },
    {
      ...metric,
      id: 'calls.answered',
      name: 'Calls answered',
      unit: 'count',
      definition: 'Calls offered that were answered.',
      streams: ['call.answered'],
      value: count('call.answered'),
    },
    {
      ...metric,
      id: 'calls.abandoned',
      name: 'Calls abandoned',
      unit: 'count',
      definition: 'Calls offered that ended unanswered as `canceled` (the caller hung up) or `no_answer`.',
      streams: ['call.abandoned'],
      value: count('call.abandoned'),
    },
    {
      ...metric,
      id: 'calls.abandonment_rate',
      name: 'Abandonment rate',
      unit: 'ratio',
      definition: 'Calls abandoned / (answered + abandoned).',
      streams: ['call.abandoned', 'call.answered'],
      value: (aggs) => ratio(count('call.abandoned')(aggs), count('call.answered')(aggs) + count('call.abandoned')(aggs)),
    },
    {
      ...metric,
      id: 'calls.service_level',
      name: 'Service level',
      unit: 'ratio',
      definition: 'Calls answered within `threshold` seconds (default 20) of their start / calls offered.',
      streams: ['call.answered', 'call.offered'],
      value: (aggs, params) => ratio(atMost(aggs, 'call.answered', params.threshold), count('call.offered')(aggs)),
    },
    {
      ...metric,
      id: 'calls.speed_of_answer',
      name: 'Speed of answer',
      unit: 'seconds',
      definition: 'From the start of a call to its answer, for answered calls (the mean is the average speed of answer).',
      streams: ['call.answered'],
      duration: true,
      value: duration('call.answered'),
    },
    {
      ...metric,
      id: 'calls.handle_time',
      name: 'Handle time',
      unit: 'seconds',
      definition: 'Talk time of answered calls, from the answer to the end (the mean is the average handle time).',
      streams: ['call.handled'],
      duration: true,
      value: duration('call.handled'),
    },
  ],
  folders: {
    'call.completed': (event) => ended(event, event.data.call),
    // A call reported only once it is over (Twilio's final callback) starts ended.
    'call.started': (event) => (TERMINAL.has(event.data.call.status) ? ended(event, event.data.call) : []),
  },
}
