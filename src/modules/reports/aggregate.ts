// Sums facts over a window, exactly and freshly: the day and hour totals wholly inside it (and inside one
// group), the stored facts of what they leave out (parts of an hour at the edges), the events the fold
// has not read yet (folded here, in memory), the intervals still open (an agent's current status, up to
// now), and the streams read from their tables.
// Grouped by a key per fact: its local bucket (time series) and its value of one dimension.
import type { Queries } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { type Schedule, businessMs } from '../../lib/business-hours.ts'
import { QUARTER_HOUR_MS } from '../../lib/zoned-time.ts'
import { type Agg, addFact, addTotal, dimValues, emptyAgg, type Fact, factOfRow } from './facts.ts'
import { factInstant, factsOfEvent, keptOut, parseLogRow, slotOf } from './fold.ts'
import { StateView } from './fold-state.ts'
import { SOURCE_STREAMS, SPREAD_STREAMS } from './registry.ts'
import { mrrFacts } from './metrics/billing.ts'
import { coverOf, HOUR_SPAN, inRanges, spansOf } from './spans.ts'
import {
  deletedAmong,
  eventsAfter,
  factsIn,
  factsOfRecord,
  progressOf,
  pendingDeletions,
  sourceRows,
  statesWithPrefix,
  subscriptionEventsBefore,
  totalsIn,
} from './store.ts'

/** Events past the fold a report folds itself; beyond it, it answers 503 until the fold has caught up. */
const TAIL_LIMIT = 20_000

export interface AggregateQuery {
  readonly organizationId: string
  readonly streams: readonly string[]
  readonly from: number
  readonly to: number
  /** The dimension to group by; '' for none. */
  readonly dim: string
  /** The group of an instant (a local bucket's start); undefined: one group, 0. */
  readonly bucketOf?: (instant: number) => number
  /** The instants where one group ends and the next begins (no total read crosses one). */
  readonly cuts?: readonly number[]
  readonly schedule: Schedule | undefined
  readonly now: number
}

/** `${bucket}\u0000${dimValue}` -> stream -> sum. */
export type Grouped = Map<string, Map<string, Agg>>

export const groupKey = (bucket: number, dimValue: string) => `${bucket}\u0000${dimValue}`

export async function aggregate(db: Queries, q: AggregateQuery): Promise<Grouped> {
  const grouped: Grouped = new Map()
  /** The sum a group's stream adds up to. */
  const sumOf = (bucket: number, dimValue: string, stream: string): Agg => {
    const key = groupKey(bucket, dimValue)
    let streams = grouped.get(key)
    if (!streams) grouped.set(key, (streams = new Map()))
    let sum = streams.get(stream)
    if (!sum) streams.set(stream, (sum = emptyAgg()))
    return sum
  }
  const bucketOf = q.bucketOf ?? (() => 0)
  const addOne = (fact: Fact, weight: 1 | -1 = 1) => {
    for (const value of dimValues(fact, q.dim)) addFact(sumOf(bucketOf(factInstant(fact)), value, fact.stream), fact, weight)
  }
  const folded = q.streams.filter((s) => !SOURCE_STREAMS.has(s))
  const sourced = q.streams.filter((s) => SOURCE_STREAMS.has(s))
  if (folded.length > 0) {
    const progress = await progressOf(db, q.organizationId)
    const cover = coverOf(q.from, q.to, q.cuts ?? [], progress.dayZone === null ? [HOUR_SPAN] : spansOf(progress.dayZone))
    const counted: Array<[number, number]> = []
    for (const [span, ranges] of cover.totals)
      for (const [from, to] of ranges) {
        counted.push([from, to])
        for (const row of await totalsIn(db, q.organizationId, folded, q.dim, span, from, to))
          addTotal(sumOf(bucketOf(Number(row.bucket_start)), row.dim_value, row.metric), row)
      }
    counted.sort((x, y) => x[0] - y[0])
    // Records deleted since the fold last ran: their facts are still in the totals, taken out here.
    const pending = await pendingDeletions(db, q.organizationId)
    for (const recordId of pending)
      for (const row of await factsOfRecord(db, q.organizationId, recordId)) {
        const fact = factOfRow(row)
        if (folded.includes(fact.stream) && inRanges(counted, factInstant(fact))) addOne(fact, -1)
      }
    // What no total covers, from the stored facts: interval pieces by their start (each lies within one
    // 15-minute slot), other facts by their time.
    const spread = folded.filter((s) => SPREAD_STREAMS.has(s))
    const instant = folded.filter((s) => !SPREAD_STREAMS.has(s))
    for (const [from, to] of cover.facts) {
      const rows = [
        ...(instant.length > 0 ? await factsIn(db, q.organizationId, instant, from, to) : []),
        ...(spread.length > 0 ? await factsIn(db, q.organizationId, spread, slotOf(from), to, true) : []),
      ]
      for (const row of rows) {
        const fact = pending.has(row.record_id) ? undefined : clipped(factOfRow(row), { from, to, schedule: q.schedule })
        if (fact) addOne(fact)
      }
    }
    for (const fact of await unfoldedFacts(db, q, folded)) addOne(fact)
  }
  for (const fact of await sourceFacts(db, q, sourced)) addOne(fact)
  return grouped
}

async function sourceFacts(
  db: Queries,
  q: Pick<AggregateQuery, 'organizationId' | 'from' | 'to'>,
  streams: readonly string[],
): Promise<Fact[]> {
  const facts: Fact[] = []
  for (const stream of streams) {
    if (stream === 'subscription.active') {
      const rows = await subscriptionEventsBefore(db, q.organizationId, q.to)
      facts.push(
        ...mrrFacts(
          rows.map((row) => row.body),
          q.to - 1,
        ),
      )
      continue
    }
    for (const row of await sourceRows(db, stream, q.organizationId, q.from, q.to)) {
      const dims: Record<string, string | null> = {}
      for (const [column, value] of Object.entries(row))
        if (column.startsWith('d_')) dims[column.slice(2)] = value === null ? null : String(value)
      const value = row.value === null ? null : Number(row.value)
      facts.push({
        stream,
        at: Number(row.at),
        recordType: String(row.record_type),
        recordId: String(row.record_id),
        seq: 0,
        value,
        startedAt: null,
        dims,
      })
    }
  }
  return facts
}

/** Every fact of `q.streams` in the window, one by one (what `records` lists): stored, unfolded, open, sourced. */
export async function windowFacts(db: Queries, q: AggregateQuery): Promise<Fact[]> {
  const folded = q.streams.filter((s) => !SOURCE_STREAMS.has(s))
  const facts: Fact[] = []
  if (folded.length > 0) {
    const spread = folded.filter((s) => SPREAD_STREAMS.has(s))
    const instant = folded.filter((s) => !SPREAD_STREAMS.has(s))
    const rows = [
      ...(instant.length > 0 ? await factsIn(db, q.organizationId, instant, q.from, q.to) : []),
      ...(spread.length > 0 ? await factsIn(db, q.organizationId, spread, slotOf(q.from), q.to, true) : []),
    ]
    const pending = await pendingDeletions(db, q.organizationId)
    for (const row of rows) {
      const fact = pending.has(row.record_id) ? undefined : clipped(factOfRow(row), q)
      if (fact) facts.push(fact)
    }
    facts.push(...(await unfoldedFacts(db, q, folded)))
  }
  facts.push(
    ...(await sourceFacts(
      db,
      q,
      q.streams.filter((s) => SOURCE_STREAMS.has(s)),
    )),
  )
  return facts
}

/** The fact as counted in the window: an interval piece cut to it (undefined when outside), others as they are. */
export function clipped(fact: Fact, q: Pick<AggregateQuery, 'from' | 'to' | 'schedule'>): Fact | undefined {
  if (!SPREAD_STREAMS.has(fact.stream)) return fact.at >= q.from && fact.at < q.to ? fact : undefined
  const start = Math.max(fact.startedAt!, q.from)
  const end = Math.min(fact.at, q.to)
  if (end <= start) return undefined
  if (start === fact.startedAt && end === fact.at) return fact
  const businessValue = q.schedule ? Math.round(businessMs(q.schedule, start, end) / 1000) : null
  return { ...fact, startedAt: start, at: end, value: (end - start) / 1000, businessValue }
}

/** The facts of the events the fold has not read yet, and of the intervals still open, inside the window. */
async function unfoldedFacts(db: Queries, q: AggregateQuery, streams: readonly string[]): Promise<Fact[]> {
  const wanted = new Set(streams)
  const progress = await progressOf(db, q.organizationId)
  const rows = await eventsAfter(db, q.organizationId, progress.foldedSeq, TAIL_LIMIT + 1)
  // Far behind (the first fold of a large log after an upgrade): an answer now would be incomplete.
  if (rows.length > TAIL_LIMIT)
    throw new AppError('SERVICE_UNAVAILABLE', 'The reports are catching up with the event log: try again in a minute', {
      headers: { 'retry-after': '60' },
    })
  const state = new StateView(db, q.organizationId)
  const facts: Fact[] = []
  for (const row of rows) facts.push(...keptOut(progress, row.seq, await factsOfEvent(parseLogRow(row), state, q.schedule)))
  if (streams.some((s) => s.startsWith('agent.'))) facts.push(...(await openIntervals(db, q, state)))
  const deleted = await deletedAmong(db, q.organizationId, [...new Set(facts.map((f) => f.recordId))])
  return facts.filter((f) => wanted.has(f.stream) && !deleted.has(f.recordId)).flatMap((f) => clipped(f, q) ?? [])
}

/** Each agent's current status (and login) as an interval from its start to now, in 15-minute pieces. */
async function openIntervals(db: Queries, q: AggregateQuery, state: StateView): Promise<Fact[]> {
  const facts: Fact[] = []
  const piece = (stream: string, agentId: string, since: number, dims: Record<string, string>) => {
    for (let start = since; start < q.now; ) {
      const end = Math.min(q.now, slotOf(start) + QUARTER_HOUR_MS)
      facts.push({ stream, at: end, recordType: 'agent', recordId: agentId, seq: 0, value: (end - start) / 1000, startedAt: start, dims })
      start = end
    }
  }
  state.preload(await statesWithPrefix(db, q.organizationId, 'a:'))
  state.preload(await statesWithPrefix(db, q.organizationId, 'l:'))
  for (const [key, value] of state.entries()) {
    if (!key.startsWith('a:') && !key.startsWith('l:')) continue
    if (value === null || value === undefined) continue
    const agentId = key.slice(2)
    if (key.startsWith('a:')) {
      const { status, since } = value as { status: string; since: number }
      piece('agent.status_time', agentId, Math.max(since, q.from), { agent: agentId, status, agent_status: `${agentId}:${status}` })
      if (status === 'busy' || status === 'available') piece(`agent.${status}_time`, agentId, Math.max(since, q.from), { agent: agentId })
    } else if (key.startsWith('l:')) piece('agent.logged_in_time', agentId, Math.max(value as number, q.from), { agent: agentId })
  }
  return facts
}
