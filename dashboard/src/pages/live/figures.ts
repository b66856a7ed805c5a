// The live figures (GET /api/v1/reports/live), read again when something changes: at most one read every
// six seconds (the reports' budget is 10 requests a minute per user), the changes of a burst of events
// read together, a refused read retried after the Retry-After the API gave, and a read each minute for
// what no event announces (a session taken from the queue) and for the waits that grow.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../../api.ts'

export const MIN_GAP_MS = 6_000
const SETTLE_MS = 300
const EVERY_MS = 60_000

type Answer = Awaited<ReturnType<typeof readLive>>
export type LiveFigures = NonNullable<Answer['data']>

function readLive() {
  return api().GET('/api/v1/reports/live')
}

/** The figures, the last error (the figures before it stay shown), and `soon()`: read again shortly. */
export function useLiveFigures() {
  const [state, setState] = useState<{ data?: LiveFigures; error?: unknown; loading: boolean }>({ loading: true })
  const timing = useRef({ last: 0, timer: undefined as ReturnType<typeof setTimeout> | undefined, alive: true })

  function soon(wait = SETTLE_MS) {
    const t = timing.current
    if (t.timer !== undefined || !t.alive) return
    t.timer = setTimeout(read, Math.max(wait, t.last + MIN_GAP_MS - Date.now()))
  }

  async function read() {
    const t = timing.current
    t.timer = undefined
    t.last = Date.now()
    try {
      const { data, error } = await readLive()
      if (!t.alive) return
      setState((before) => (data ? { data, loading: false } : { data: before.data, error, loading: false }))
      const retryAfter = (error as { retry_after?: number } | undefined)?.retry_after
      if (retryAfter !== undefined) soon(retryAfter * 1000)
    } catch (thrown) {
      if (t.alive) setState((before) => ({ data: before.data, error: { message: String(thrown) }, loading: false }))
    }
  }

  useEffect(() => {
    const t = timing.current
    t.alive = true
    soon(0)
    const every = setInterval(() => soon(), EVERY_MS)
    return () => {
      t.alive = false
      clearTimeout(t.timer)
      clearInterval(every)
    }
  }, [])

  return { ...state, soon }
}
