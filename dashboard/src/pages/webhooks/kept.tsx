// One delivery attempt as the API keeps it: when it ended (or is due), its ids, its error, and the
// first 16 KB of the receiver's answer (the API keeps no headers of the answer).
import { When } from '../../ui.tsx'
import type { Delivery } from './status.tsx'

export function Kept({ delivery }: { delivery: Delivery }) {
  return (
    <div class="webhooks-kept">
      <dl class="webhooks-facts">
        <dt>Delivery</dt>
        <dd>
          <code>{delivery.id}</code>
        </dd>
        <dt>Event</dt>
        <dd>
          <code>{delivery.event_id}</code> ({delivery.trigger})
        </dd>
        <dt>Ended</dt>
        <dd>
          <When at={delivery.delivered_at} />
        </dd>
        {delivery.next_attempt_at && (
          <>
            <dt>Next attempt</dt>
            <dd>
              <When at={delivery.next_attempt_at} />
            </dd>
          </>
        )}
        <dt>Error</dt>
        <dd>{delivery.error ? `${delivery.error.class}: ${delivery.error.message}` : <span class="muted">none</span>}</dd>
      </dl>
      <p class="muted">The answer's body as kept (its first 16 KB; headers are not kept):</p>
      {delivery.response_body ? <pre class="webhooks-body">{delivery.response_body}</pre> : <p class="muted">No answer was kept.</p>}
    </div>
  )
}

/** When the attempt ended; a pending one, when it is due. */
export function Time({ delivery }: { delivery: Delivery }) {
  if (delivery.delivered_at) return <When at={delivery.delivered_at} />
  if (delivery.next_attempt_at)
    return (
      <>
        due <When at={delivery.next_attempt_at} />
      </>
    )
  return <When at={delivery.created_at} />
}
