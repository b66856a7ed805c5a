// The organization's event stream (GET /api/v1/events/stream) read with fetch, since EventSource cannot
// send the Authorization header: the typed client sends the current token (renewed by session.ts, so
// each reconnection has a fresh one) and hands back the body as a stream, parsed by sse.ts. When the
// stream ends or fails it reconnects with a growing, jittered delay and Last-Event-ID, so no event is
// missed; a refusal that waiting cannot mend (401, 403) stops it with the API's reason.
import { useEffect, useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { type SseEvent, SseParser } from './sse.ts'

export type Connection = 'connecting' | 'connected' | 'reconnecting' | 'stopped'

const MAX_DELAY_MS = 30_000

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

interface Handlers {
  /** Each event of the stream. */
  onEvent: (event: SseEvent) => void
  /** The stream is open; `again` after a reconnection (what happened meanwhile without an event is unknown). */
  onOpen: (again: boolean) => void
}

async function follow(types: string, handlers: Handlers, signal: AbortSignal, report: (c: Connection, error?: unknown) => void) {
  let lastId: string | undefined
  let base = 1000
  let failures = 0
  let opened = false
  while (!signal.aborted) {
    let problem: unknown
    try {
      const headers: Record<string, string> = lastId === undefined ? {} : { 'Last-Event-ID': lastId }
      const { data, error, response } = await api().GET('/api/v1/events/stream', {
        params: { query: { types } },
        parseAs: 'stream',
        headers,
        signal,
      })
      if (data) {
        report('connected')
        handlers.onOpen(opened)
        opened = true
        failures = 0
        const parser = new SseParser()
        parser.lastEventId = lastId
        const reader = data.pipeThrough(new TextDecoderStream()).getReader()
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          for (const event of parser.push(value)) handlers.onEvent(event)
          lastId = parser.lastEventId
          base = parser.retry ?? base
        }
      } else if (response.status === 401 || response.status === 403) {
        report('stopped', error)
        return
      } else if (response.status === 400 && lastId !== undefined) {
        // The resume point is refused (the log was rebuilt): start again from now, and re-read.
        lastId = undefined
      } else {
        // 409: the user's five streams are open elsewhere; 429, 5xx: the server is busy. Wait and retry.
        problem = error
      }
    } catch {
      // The network failed or the stream broke off: reconnect (unless the screen is gone).
    }
    if (signal.aborted) return
    report('reconnecting', problem)
    failures++
    const delay = Math.min(MAX_DELAY_MS, base * 2 ** (failures - 1))
    await sleep(delay * (0.5 + Math.random() / 2), signal)
  }
}

/** Follows the stream while the component is shown; its connection state and the reason it stopped. */
export function useEventStream(types: string, handlers: Handlers): { connection: Connection; error: unknown } {
  const [state, setState] = useState<{ connection: Connection; error?: unknown }>({ connection: 'connecting' })
  useEffect(() => {
    const abort = new AbortController()
    void follow(types, handlers, abort.signal, (connection, error) => {
      if (!abort.signal.aborted) setState({ connection, error })
    })
    return () => abort.abort()
  }, [types])
  return { connection: state.connection, error: state.error }
}
