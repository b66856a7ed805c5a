// The Live screen: calls waiting, sessions queued, agents by status and the open tickets, now; read
// again whenever the event stream tells of a change, without a reload. The connection's state is said
// in words in a polite live region, which changes (and is announced) only when the state does.
import { useRef } from 'preact/hooks'
import type { ScreenProps } from '../../screens.ts'
import { ErrorNote, Page } from '../../ui.tsx'
import { duration } from '../reports/format.ts'
import { useLiveFigures } from './figures.ts'
import { type Connection, useEventStream } from './stream.ts'

/** The events that can change a live figure. */
const TYPES = 'call.*,engagement.*,agent.*,ticket.*'

const STATE_WORDS: Record<Connection, string> = {
  connecting: 'Connecting to live updates…',
  connected: 'Live updates: connected. The figures change as things happen.',
  reconnecting: 'Live updates: connection lost, reconnecting…',
  stopped: 'Live updates: stopped.',
}

const words = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ')

function Figure({ label, value, detail }: { label: string; value: number; detail?: string }) {
  return (
    <div class="live-figure">
      <dt>{label}</dt>
      <dd>
        <span class="live-number">{value}</span>
        {detail && <span class="live-detail">{detail}</span>}
      </dd>
    </div>
  )
}

const longest = (seconds: number | null) => (seconds === null ? 'nobody waiting' : `longest wait ${duration(seconds)}`)

export function Live(_: ScreenProps) {
  const figures = useLiveFigures()
  // The stream's handlers are made once; they reach the current `soon` through this ref.
  const soon = useRef(figures.soon)
  soon.current = figures.soon
  const stream = useEventStream(TYPES, {
    onEvent: () => soon.current(),
    onOpen: (again) => again && soon.current(),
  })
  const data = figures.data
  const agents = Object.entries(data?.agents.by_status ?? {}).filter(([, n]) => n > 0)
  return (
    <Page title="Live" intro="What is happening now, updated without reloading the page.">
      <p role="status" class={`live-connection live-${stream.connection}`}>
        {STATE_WORDS[stream.connection]}
      </p>
      <ErrorNote error={stream.error} />
      <ErrorNote error={figures.error} />
      {figures.loading && !data && <p>Loading…</p>}
      {data && (
        <>
          <h2>Queues</h2>
          <dl class="live-figures">
            <Figure label="Calls waiting" value={data.calls.waiting} detail={longest(data.calls.longest_wait_seconds)} />
            <Figure label="Sessions queued" value={data.sessions.queued} detail={longest(data.sessions.longest_wait_seconds)} />
            <Figure label="Open tickets" value={data.tickets.backlog} detail={`${data.tickets.unassigned} unassigned`} />
          </dl>
          <h2>Agents by status</h2>
          {agents.length === 0 ? (
            <p class="muted">No agent profiles yet.</p>
          ) : (
            <dl class="live-figures">
              {agents.map(([status, n]) => (
                <Figure key={status} label={words(status)} value={n} />
              ))}
            </dl>
          )}
          <p class="muted">
            As of <time dateTime={data.as_of}>{new Date(data.as_of).toLocaleTimeString()}</time>.
          </p>
        </>
      )}
    </Page>
  )
}
