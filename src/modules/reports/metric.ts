// The shape of the metric registry: each metric is data (id, name, unit, definition, records,
// dimensions, version) plus how its value comes from the aggregates of its fact streams. The fold turns
// events into facts (Folder); a few streams are read from their tables instead (SourceStream).
import type { Agg, Fact } from './facts.ts'

export type Unit = 'count' | 'seconds' | 'ratio' | 'score' | 'minor_units'
export type Family = 'tickets' | 'calls' | 'agents' | 'engagements' | 'surveys' | 'crm' | 'billing'

/** What a report asks of a metric besides its window. */
export interface MetricParams {
  /** Service level: answered within this many seconds (default 20). */
  readonly threshold: number
  readonly hours: 'calendar' | 'business'
}

/** A metric's value: a number (count, ratio, score), or a duration's statistics. */
export type MetricValue = number | null | DurationValue

export interface DurationValue {
  readonly count: number
  readonly mean: number | null
  readonly p50: number | null
  readonly p90: number | null
}

export interface MetricDef {
  readonly id: string
  readonly family: Family
  readonly name: string
  readonly unit: Unit
  readonly definition: string
  /** The records it counts, as `records` lists them (`tickets`, `calls`…). */
  readonly records: string
  readonly dimensions: readonly string[]
  readonly version: number
  /** The fact streams its value is computed from; the first is the one `records` lists. */
  readonly streams: readonly string[]
  readonly value: (aggs: ReadonlyMap<string, Agg>, params: MetricParams) => MetricValue
  /** Durations: a DurationValue. */
  readonly duration?: boolean
  /** Needs `billing:read` besides `report:read`. */
  readonly billing?: boolean
}

/** An event of the log as the fold reads it. */
export interface FoldEvent {
  readonly seq: number
  readonly type: string
  readonly createdAt: number
  readonly actorKind: string | null
  // biome-ignore lint/suspicious/noExplicitAny: the event's data, shaped per type by the catalog.
  readonly data: any
}

/** Per-record memory of the fold (a ticket's last status, whether it had its first response). */
export interface FoldState {
  get<T>(key: string): Promise<T | undefined>
  set(key: string, value: unknown): void
}

export type Folder = (event: FoldEvent, state: FoldState) => Promise<Fact[]> | Fact[]

/** A metric family: its metrics, and the folders of the event types it reads. */
export interface MetricFamily {
  readonly metrics: readonly MetricDef[]
  readonly folders: Readonly<Record<string, Folder>>
}
