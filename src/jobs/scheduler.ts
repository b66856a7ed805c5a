// The cron loop: named tasks on fixed intervals, driven by an injectable clock; each run is recorded
// for /health and logged (at debug when it found nothing to do); a failing task is retried next time;
// a slow task never overlaps itself. With several instances, a task of the cluster runs only on the
// instance that holds the cron leadership; a task of the instance (its own memory, its own sender)
// runs everywhere.
import type { Clock } from '../lib/clock.ts'
import { isoTime } from '../lib/clock.ts'
import type { Logger } from '../lib/log.ts'

export interface TaskContext {
  /** Clock time at which this run started. */
  now: number
  log: Logger
  /** Aborted when the loop stops; long tasks should check it and return early. */
  signal: AbortSignal
}

/**
 * What a run reports; its fields go into the run's log line. `worked: false` says the run found
 * nothing to do: its line is written at debug, so an idle server's log stays quiet (a task that
 * runs every second would otherwise write 86,400 lines a day). Without it, the line is info.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a task that returns nothing at all reports nothing
export type TaskReport = ({ worked?: boolean } & Record<string, unknown>) | void

/** A run that found nothing to do but took at least this long is still logged at info: slowness is news. */
export const SLOW_RUN_MS = 1000

export interface TaskDefinition {
  name: string
  intervalMs: number
  /** Run at the first tick instead of one interval after registration. */
  runAtStart?: boolean
  /**
   * `cluster` (the default): once across the instances, by the cron leader (shared data: the database).
   * `instance`: on every instance (what it keeps in its own memory, its own webhook sender).
   */
  scope?: 'cluster' | 'instance'
  run(ctx: TaskContext): TaskReport | Promise<TaskReport>
}

export interface TaskStatus {
  last_run_at: string | null
  last_duration_ms: number | null
  last_error: string | null
  /** Start of the most recent failed run, even when later runs succeeded. */
  last_failure_at: string | null
  runs: number
  failures: number
  next_run_at: string
  /** The instance that ran it last (INSTANCE_ID). */
  ran_by: string | null
  scope: 'cluster' | 'instance'
}

/** Which instance runs the tasks of the cluster now (one process alone always does). */
export interface Leadership {
  /** Asked at every tick: true while this instance leads (taken when free, lost with its connection). */
  lead(): Promise<boolean>
  /** After a run of a cluster task: shares its status, so every instance's /health shows it. */
  ran?(name: string, status: TaskStatus): void
}

interface TaskState {
  def: TaskDefinition
  nextRunAt: number
  running: Promise<void> | undefined
  lastRunAt: number | null
  lastDurationMs: number | null
  lastError: string | null
  lastFailureAt: number | null
  runs: number
  failures: number
}

export class Scheduler {
  private readonly tasks = new Map<string, TaskState>()
  private timer: ReturnType<typeof setInterval> | undefined
  private readonly abort = new AbortController()

  private leading: boolean

  constructor(private readonly options: { clock: Clock; log: Logger; tickMs: number; instanceId?: string; leadership?: Leadership }) {
    // One process alone leads from the start; among peers, the first tick finds out.
    this.leading = options.leadership === undefined
  }

  /** Whether this instance ran the cluster's tasks at the last tick. */
  get isLeader(): boolean {
    return this.leading
  }

  register(def: TaskDefinition): this {
    if (this.tasks.has(def.name)) throw new Error(`cron task ${def.name} is registered twice`)
    if (!(def.intervalMs > 0)) throw new Error(`cron task ${def.name} needs a positive interval`)
    const now = this.options.clock.now()
    this.tasks.set(def.name, {
      def,
      nextRunAt: def.runAtStart ? now : now + def.intervalMs,
      running: undefined,
      lastRunAt: null,
      lastDurationMs: null,
      lastError: null,
      lastFailureAt: null,
      runs: 0,
      failures: 0,
    })
    return this
  }

  /** Starts ticking every `tickMs` of real time. */
  start(): void {
    if (this.timer || this.abort.signal.aborted) return
    this.timer = setInterval(() => void this.tick(), this.options.tickMs)
    this.timer.unref?.()
  }

  /** Starts every due task that is not already running; resolves when the runs it started end. */
  async tick(): Promise<void> {
    if (this.abort.signal.aborted) return
    const { leadership } = this.options
    if (leadership) {
      const was = this.leading
      this.leading = await leadership.lead().catch(() => false)
      if (this.leading !== was) this.options.log.info(this.leading ? 'cron leadership taken' : 'cron leadership lost or held elsewhere')
    }
    const now = this.options.clock.now()
    const started: Promise<void>[] = []
    for (const state of this.tasks.values()) {
      if (state.running || now < state.nextRunAt) continue
      if (!this.leading && state.def.scope !== 'instance') continue
      state.nextRunAt = now + state.def.intervalMs
      state.running = this.runOnce(state, now).finally(() => (state.running = undefined))
      started.push(state.running)
    }
    await Promise.all(started)
  }

  /** Stops ticking, signals running tasks to stop, and waits for them to finish. */
  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    this.abort.abort()
    await Promise.allSettled([...this.tasks.values()].map((s) => s.running))
  }

  status(): Record<string, TaskStatus> {
    const out: Record<string, TaskStatus> = {}
    for (const [name, s] of this.tasks) {
      out[name] = {
        last_run_at: s.lastRunAt === null ? null : isoTime(s.lastRunAt),
        last_duration_ms: s.lastDurationMs,
        last_error: s.lastError,
        last_failure_at: s.lastFailureAt === null ? null : isoTime(s.lastFailureAt),
        runs: s.runs,
        failures: s.failures,
        next_run_at: isoTime(s.nextRunAt),
        ran_by: s.lastRunAt === null ? null : (this.options.instanceId ?? null),
        scope: s.def.scope ?? 'cluster',
      }
    }
    return out
  }

  private async runOnce(state: TaskState, now: number): Promise<void> {
    const { log } = this.options
    const taskLog = log.child({ task: state.def.name })
    const started = performance.now()
    // biome-ignore lint/complexity/noUselessUndefinedInitialization: TypeScript needs it definitely assigned
    let report: TaskReport = undefined
    let failure: unknown
    try {
      report = await state.def.run({ now, log: taskLog, signal: this.abort.signal })
    } catch (error) {
      failure = error
    }
    const duration = Math.round((performance.now() - started) * 100) / 100
    state.lastRunAt = now
    state.lastDurationMs = duration
    state.runs++
    if (failure === undefined) {
      state.lastError = null
      const { worked, ...fields } = report ?? {}
      const idle = worked === false && duration < SLOW_RUN_MS
      taskLog[idle ? 'debug' : 'info']('cron', { outcome: 'ok', duration_ms: duration, ...fields })
    } else {
      state.failures++
      state.lastFailureAt = now
      state.lastError = failure instanceof Error ? failure.message : String(failure)
      taskLog.error('cron', { outcome: 'error', duration_ms: duration, error: failure })
    }
    if (state.def.scope !== 'instance') this.options.leadership?.ran?.(state.def.name, this.status()[state.def.name]!)
  }
}
