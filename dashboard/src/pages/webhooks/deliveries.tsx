// The delivery log: one row per attempt, newest first, filtered by status; each opens what the API kept
// of it (the answer's first 16 KB, the error) and may be sent again now. The first page refreshes itself.
import { useEffect, useState } from 'preact/hooks'
import type { operations } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { ErrorNote, useAction, useCan, useLoad } from '../../ui.tsx'
import { Kept, Time } from './kept.tsx'
import type { Delivery } from './status.tsx'
import { outcomeOf } from './tools.tsx'

type Status = NonNullable<NonNullable<operations['listWebhookDeliveries']['parameters']['query']>['status']>
const STATUSES = ['pending', 'success', 'failed', 'skipped'] as const satisfies readonly Status[]
const REFRESH_MS = 5000

export function DeliveryLog({ id, version, onRetried }: { id: string; version: number; onRetried: () => void }) {
  const canRetry = useCan('webhook:update')
  const [status, setStatus] = useState<Status | ''>('')
  const [tick, setTick] = useState(0)
  const [more, setMore] = useState<{ deliveries: Delivery[]; next: string }>({ deliveries: [], next: '' })
  const [open, setOpen] = useState<string | undefined>()
  const [result, setResult] = useState<string | undefined>()
  const retry = useAction()
  const query = { page_size: 20, ...(status ? { status } : {}) }
  const first = useLoad(
    () => api().GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } }),
    [id, version, status, tick],
  )
  const paging = more.deliveries.length > 0
  useEffect(() => setMore({ deliveries: [], next: '' }), [id, version, status])
  useEffect(() => {
    // Deliveries go out on the server's own clock: the first page follows them until more are loaded.
    if (paging) return
    const timer = setInterval(() => setTick((t) => t + 1), REFRESH_MS)
    return () => clearInterval(timer)
  }, [paging])
  const deliveries = [...(first.data?.deliveries ?? []), ...more.deliveries]
  const next = paging ? more.next : (first.data?.next_page_token ?? '')
  async function loadMore() {
    const page = await api().GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { ...query, page_token: next } } })
    if (page.data) setMore({ deliveries: [...more.deliveries, ...page.data.deliveries], next: page.data.next_page_token })
  }
  async function resend(delivery: Delivery) {
    setResult(undefined)
    const path = { id, delivery_id: delivery.id }
    const again = await retry.run(() => api().POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { path } }))
    if (!again) return
    setResult(`Attempt ${again.attempt} of ${again.event_type}: ${outcomeOf(again)}.`)
    onRetried()
  }
  return (
    <section class="panel" aria-labelledby="webhooks-log">
      <h2 id="webhooks-log">Delivery log</h2>
      <form class="inline" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select name="status" value={status} onChange={(event) => setStatus(event.currentTarget.value as Status | '')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" onClick={() => setTick((t) => t + 1)}>
          Refresh
        </button>
      </form>
      <p role="status">{result ?? ''}</p>
      <ErrorNote error={first.error ?? retry.error} />
      {first.data && deliveries.length === 0 && <p>No deliveries yet.</p>}
      {deliveries.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => {
                const named = ` attempt ${delivery.attempt} of ${delivery.event_type}`
                return [
                  <tr key={delivery.id}>
                    <td>
                      <Time delivery={delivery} />
                    </td>
                    <td>
                      {delivery.event_type}
                      <div class="muted">{delivery.trigger}</div>
                    </td>
                    <td>{delivery.attempt}</td>
                    <td>
                      <strong class={delivery.status === 'success' ? 'ok' : delivery.status === 'failed' ? 'error' : 'warn'}>
                        {delivery.status}
                      </strong>
                    </td>
                    <td>
                      {delivery.response_code ?? <span class="muted">none</span>}
                      {delivery.response_time_ms !== null && <div class="muted">{delivery.response_time_ms} ms</div>}
                    </td>
                    <td>
                      <div class="webhooks-row-actions">
                        <button
                          type="button"
                          class="secondary"
                          aria-expanded={open === delivery.id}
                          aria-controls={open === delivery.id ? `webhooks-kept-${delivery.id}` : undefined}
                          onClick={() => setOpen(open === delivery.id ? undefined : delivery.id)}
                        >
                          Answer<span class="webhooks-sr"> of{named}</span>
                        </button>
                        {canRetry && delivery.status !== 'pending' && (
                          <button type="button" class="secondary" disabled={retry.busy} onClick={() => resend(delivery)}>
                            Retry<span class="webhooks-sr">{named}</span>
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>,
                  open === delivery.id && (
                    <tr key={`${delivery.id}-kept`} id={`webhooks-kept-${delivery.id}`}>
                      <td colSpan={6}>
                        <Kept delivery={delivery} />
                      </td>
                    </tr>
                  ),
                ]
              })}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button type="button" class="secondary" onClick={loadMore}>
          Load older attempts
        </button>
      )}
    </section>
  )
}
