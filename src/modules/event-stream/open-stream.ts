// openEventStream: the caller's organization's events as Server-Sent Events. Starts after Last-Event-ID
// (read from the log, in pages) or at the log's end; then reads the log after its last seq whenever the
// hub wakes it (a signal after a commit, or the poll). Pulled by the client (nothing is read ahead of
// what it takes); a comment every heartbeat, at which the credential is checked again (revoked, expired
// or disabled: the stream ends). Disconnecting releases everything (cancel or the request's abort).
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { authenticate } from '../auth/index.ts'
import { matches } from './filters.ts'
import { hubOf } from './hub.ts'
import { eventsAfter, latestSeq } from './store.ts'
import { maySee, SeenCalls } from './visibility.ts'

export const PAGE_SIZE = 100
/** What the client waits before reconnecting (the `retry:` field), ms. */
export const RETRY_MS = 2000
const encoder = new TextEncoder()

export interface StreamInput {
  /** Last-Event-ID as given (header or query), undefined: start at the log's end. */
  lastEventId: string | undefined
  types: readonly string[] | null
  /** The request, for the credential's re-check; its abort (the client went away) ends the stream. */
  request: Request
}

/** The seq after which to start: Last-Event-ID, checked (400 unless a seq of this organization's log). */
async function startSeq(ctx: Ctx<UserActor>, lastEventId: string | undefined): Promise<number> {
  const latest = await latestSeq(ctx.db, ctx.actor.organizationId)
  if (lastEventId === undefined) return latest
  const text = lastEventId.trim()
  if (!/^\d{1,15}$/.test(text))
    throw new AppError('VALIDATION_FAILED', 'Last-Event-ID must be the id of an event this stream sent (a whole number)')
  const seq = Number(text)
  if (seq > latest) throw new AppError('VALIDATION_FAILED', `Last-Event-ID ${seq} is after this organization's latest event (${latest})`)
  return seq
}

export async function openEventStream(ctx: Ctx<UserActor>, input: StreamInput): Promise<ReadableStream<Uint8Array>> {
  let lastSeq = await startSeq(ctx, input.lastEventId)
  let actor = ctx.actor
  const { organizationId, userId } = actor
  // Resuming: read the log at once; live: only once woken.
  let dirty = input.lastEventId !== undefined
  let heartbeatDue = false
  let closed = false
  let waiting: (() => void) | undefined
  const wake = () => {
    const resolve = waiting
    waiting = undefined
    resolve?.()
  }
  // The slot outlives three missed heartbeats: one of a dead instance lapses within about that.
  const leaseMs = 3 * ctx.config.eventStreamHeartbeatMs + 5_000
  const opened = await hubOf(ctx).open(
    {
      organizationId,
      userId,
      lastSeq: () => lastSeq,
      wake: () => {
        dirty = true
        wake()
      },
      end: () => end(),
    },
    { now: ctx.clock.now(), until: ctx.clock.now() + leaseMs },
  )
  const release = opened.release
  const heartbeat = setInterval(() => {
    // Renewed here, not when the client pulls the ping: a slow reader still holds its slot.
    opened.renew(ctx.clock.now() + leaseMs)
    heartbeatDue = true
    wake()
  }, ctx.config.eventStreamHeartbeatMs)
  const end = () => {
    if (closed) return
    closed = true
    clearInterval(heartbeat)
    release()
    input.request.signal.removeEventListener('abort', end)
    wake()
  }
  input.request.signal.addEventListener('abort', end)
  const seenCalls = new SeenCalls()

  /** The next page's frames (empty when none is visible), advancing lastSeq. */
  async function readPage(): Promise<string> {
    const rows = await eventsAfter(ctx.db, organizationId, lastSeq, PAGE_SIZE)
    if (rows.length === PAGE_SIZE) dirty = true
    let frames = ''
    for (const row of rows) {
      lastSeq = row.seq
      if (!matches(input.types, row.type)) continue
      if (!maySee(actor, row.type, row.body, seenCalls)) continue
      // The body is one line of JSON (JSON.stringify writes no raw newline): one data line.
      frames += `id: ${row.seq}\nevent: ${row.type}\ndata: ${row.body}\n\n`
    }
    return frames
  }

  /** The credential as it is now (and the grants of the user's role now); a reason to end when it no longer holds. */
  async function recheck(): Promise<string | undefined> {
    try {
      // Not a use: an open stream alone must not keep its session (and an absent agent) active.
      actor = await authenticate(ctx, input.request, actor.request, { recordUse: false })
      return undefined
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'TOKEN_INVALID'
      return JSON.stringify({ code, message: error instanceof Error ? error.message : 'The credential no longer holds' })
    }
  }

  let started = false
  let cancelled = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: connected\n\n`))
        return
      }
      try {
        while (!closed) {
          if (dirty) {
            dirty = false
            const frames = await readPage()
            if (frames !== '' && !closed) return controller.enqueue(encoder.encode(frames))
            continue
          }
          if (heartbeatDue) {
            heartbeatDue = false
            const ended = await recheck()
            if (ended !== undefined) {
              if (!closed) controller.enqueue(encoder.encode(`event: stream.closed\ndata: ${ended}\n\n`))
              break
            }
            if (!closed) return controller.enqueue(encoder.encode(': ping\n\n'))
            break
          }
          await new Promise<void>((resolve) => (waiting = resolve))
        }
      } catch (error) {
        ctx.log.error('event stream failed', { organization_id: organizationId, error })
      }
      end()
      if (!cancelled)
        try {
          controller.close()
        } catch {
          // Closed already by the other side.
        }
    },
    cancel() {
      cancelled = true
      end()
    },
  })
}
