// Agent metrics: time in each status and logged-in time (spread facts: an interval, split at the
// 15-minute buckets it crosses, so a window counts exactly the part inside it; the interval still open
// counts up to now), and occupancy: busy / (available + busy).
import type { Agg, Fact } from '../facts.ts'
import type { FoldEvent, MetricFamily } from '../metric.ts'
import { ms, ratio } from './shared.ts'

interface Since {
  status: string
  since: number
}

/** An interval of `agent` spent in `status` (or logged in), split by the fold into bucket pieces. */
function interval(event: FoldEvent, stream: string, agentId: string, status: string | null, since: number, until: number): Fact[] {
  if (until <= since) return []
  // agent_status: one dimension for the agents report's time per status of each agent.
  const dims: Record<string, string> =
    status === null ? { agent: agentId } : { agent: agentId, status, agent_status: `${agentId}:${status}` }
  return [
    { stream, at: until, recordType: 'agent', recordId: agentId, seq: event.seq, value: (until - since) / 1000, startedAt: since, dims },
  ]
}

const seconds = (stream: string) => (aggs: ReadonlyMap<string, Agg>) => Math.round(aggs.get(stream)?.total ?? 0)

/** Streams of intervals: split at bucket edges, and counted by the part of them inside a window. */
export const SPREAD_STREAMS = new Set(['agent.status_time', 'agent.busy_time', 'agent.available_time', 'agent.logged_in_time'])

const metric = { family: 'agents', records: 'agents', version: 1 } as const

export const AGENTS: MetricFamily = {
  metrics: [
    {
      ...metric,
      id: 'agents.status_time',
      name: 'Time in status',
      unit: 'seconds',
      definition:
        'Seconds agents spent in each status (`group_by=status`), the part inside the window; the current status counts up to now.',
      dimensions: ['agent', 'status'],
      streams: ['agent.status_time'],
      value: seconds('agent.status_time'),
    },
    {
      ...metric,
      id: 'agents.logged_in_time',
      name: 'Logged-in time',
      unit: 'seconds',
      definition: 'Seconds agents were logged in, the part inside the window; a session still open counts up to now.',
      dimensions: ['agent'],
      streams: ['agent.logged_in_time'],
      value: seconds('agent.logged_in_time'),
    },
    {
      ...metric,
      id: 'agents.occupancy',
      name: 'Occupancy',
      unit: 'ratio',
      definition: 'Time in `busy` / time in `available` and `busy` together.',
      dimensions: ['agent'],
      streams: ['agent.busy_time', 'agent.available_time'],
      value: (aggs) => {
        const busy = seconds('agent.busy_time')(aggs)
        return ratio(busy, busy + seconds('agent.available_time')(aggs))
      },
    },
  ],
  folders: {
    'agent.status_changed': async (event, state) => {
      const agentId = event.data.agent.id as string
      const now = ms(event.data.agent.status_changed_at) ?? event.createdAt
      const known = await state.get<Since>(`a:${agentId}`)
      state.set(`a:${agentId}`, { status: event.data.to, since: now } satisfies Since)
      if (!known) return []
      const facts = interval(event, 'agent.status_time', agentId, known.status, known.since, now)
      if (known.status === 'busy' || known.status === 'available')
        facts.push(...interval(event, `agent.${known.status}_time`, agentId, null, known.since, now))
      return facts
    },
    'agent.logged_in': (event, state) => {
      state.set(`l:${event.data.agent.id}`, event.createdAt)
      return []
    },
    'agent.logged_out': async (event, state) => {
      const agentId = event.data.agent.id as string
      const since = await state.get<number>(`l:${agentId}`)
      state.set(`l:${agentId}`, null)
      return since ? interval(event, 'agent.logged_in_time', agentId, null, since, event.createdAt) : []
    },
  },
}
