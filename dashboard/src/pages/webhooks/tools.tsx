// Two sends on request: a test event of a chosen type (the API's example data, to this webhook only),
// and the recovery that queues again every event since a time that failed for good or was skipped.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { formValues } from '../../sign-in.tsx'
import { ErrorNote, useAction } from '../../ui.tsx'
import { EVENT_TYPES } from './events.ts'
import type { Delivery, Webhook } from './status.tsx'

/** One attempt's outcome in a sentence. */
export function outcomeOf(delivery: Delivery): string {
  const answered = delivery.response_code === null ? '' : `, answered ${delivery.response_code}`
  const took = delivery.response_time_ms === null ? '' : ` in ${delivery.response_time_ms} ms`
  const why = delivery.error ? ` (${delivery.error.message})` : ''
  return `${delivery.status}${answered}${took}${why}`
}

export function TestSend({ id, onSent }: { id: string; onSent: () => void }) {
  const { busy, error, run } = useAction()
  const [result, setResult] = useState<string | undefined>()
  async function submit(event: SubmitEvent) {
    const { event_type } = formValues(event)
    setResult(undefined)
    const delivery = await run(() =>
      api().POST('/api/v1/webhooks/{id}/test', { params: { path: { id } }, body: { event_type: event_type! } }),
    )
    if (!delivery) return
    setResult(`Test ${delivery.event_type} sent: ${outcomeOf(delivery)}.`)
    onSent()
  }
  return (
    <section class="panel" aria-labelledby="webhooks-test">
      <h2 id="webhooks-test">Send a test event</h2>
      <p class="muted">The example data of the type, marked test, to this webhook whatever its events; never retried.</p>
      <form class="inline" onSubmit={submit}>
        <label>
          Event type
          <select name="event_type">
            {EVENT_TYPES.map((type) => (
              <option value={type}>{type}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Sending…' : 'Send test event'}
        </button>
      </form>
      <p role="status">{result ?? ''}</p>
      <ErrorNote error={error} />
    </section>
  )
}

/** A `datetime-local` value (the reader's zone) of a time. */
function localInput(at: number): string {
  const date = new Date(at - new Date(at).getTimezoneOffset() * 60_000)
  return date.toISOString().slice(0, 16)
}

export function RecoverForm({ webhook, onQueued }: { webhook: Webhook; onQueued: () => void }) {
  const { busy, error, run } = useAction()
  const [result, setResult] = useState<string | undefined>()
  const [now] = useState(() => Date.now())
  async function submit(event: SubmitEvent) {
    const { since } = formValues(event)
    setResult(undefined)
    const body = { since: new Date(since!).toISOString() }
    const queued = await run(() => api().POST('/api/v1/webhooks/{id}/recover', { params: { path: { id: webhook.id } }, body }))
    if (!queued) return
    setResult(`${queued.queued} event${queued.queued === 1 ? '' : 's'} queued again.`)
    onQueued()
  }
  return (
    <section class="panel" aria-labelledby="webhooks-recover">
      <h2 id="webhooks-recover">Recover</h2>
      <p class="muted">
        Queues again every event since the time you give (at most 14 days back) that failed for good or was skipped while the webhook was
        disabled.{!webhook.enabled && ' Enable the webhook first.'}
      </p>
      <form class="inline" onSubmit={submit}>
        <label>
          Since
          <input name="since" type="datetime-local" required defaultValue={localInput(now - 86_400_000)} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Queuing…' : 'Recover deliveries'}
        </button>
      </form>
      <p role="status">{result ?? ''}</p>
      <ErrorNote error={error} />
    </section>
  )
}
