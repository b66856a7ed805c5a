// A webhook's page: its settings (changed in place), what may be done to it, the test send, the
// recovery of undelivered events, and the delivery log, which reloads after each of these.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, Page, useCan, useLoad, When } from '../../ui.tsx'
import { WebhookActions } from './actions.tsx'
import { DeliveryLog } from './deliveries.tsx'
import { WebhookForm } from './form.tsx'
import { WebhookStatus } from './status.tsx'
import { RecoverForm, TestSend } from './tools.tsx'

export function WebhookDetail({ id }: { id: string }) {
  const canUpdate = useCan('webhook:update')
  const { data: webhook, error, reload } = useLoad(() => api().GET('/api/v1/webhooks/{id}', { params: { path: { id } } }), [id])
  const [editing, setEditing] = useState(false)
  // Bumped after a send of any kind: the log reloads, and so does the webhook's state.
  const [sends, setSends] = useState(0)
  const sent = () => {
    setSends((n) => n + 1)
    reload()
  }
  return (
    <Page title="Webhook" intro={webhook && <span class="webhooks-url">{webhook.url}</span>}>
      <p>
        <a href="/app/webhooks">Back to the webhooks</a>
      </p>
      <ErrorNote error={error} />
      {webhook && (
        <>
          <section class="panel" aria-labelledby="webhooks-settings">
            <h2 id="webhooks-settings">Settings</h2>
            {editing ? (
              <WebhookForm
                webhook={webhook}
                onSaved={() => {
                  setEditing(false)
                  reload()
                }}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <>
                <dl class="webhooks-facts">
                  <dt>Receiver URL</dt>
                  <dd class="webhooks-url">{webhook.url}</dd>
                  <dt>Description</dt>
                  <dd>{webhook.description ?? <span class="muted">none</span>}</dd>
                  <dt>Events</dt>
                  <dd>
                    <code>{webhook.events.join(', ')}</code>
                  </dd>
                  <dt>Status</dt>
                  <dd>
                    <WebhookStatus webhook={webhook} />
                    {webhook.disabled_at && (
                      <>
                        {' '}
                        (since <When at={webhook.disabled_at} />)
                      </>
                    )}
                  </dd>
                  <dt>Last success</dt>
                  <dd>
                    <When at={webhook.last_success_at} />
                  </dd>
                  <dt>Created</dt>
                  <dd>
                    <When at={webhook.created_at} />
                  </dd>
                </dl>
                {canUpdate && (
                  <button type="button" class="secondary" onClick={() => setEditing(true)}>
                    Edit settings
                  </button>
                )}
              </>
            )}
          </section>
          <WebhookActions webhook={webhook} onChanged={reload} />
          {canUpdate && <TestSend id={id} onSent={sent} />}
          {canUpdate && <RecoverForm webhook={webhook} onQueued={sent} />}
          <DeliveryLog id={id} version={sends} onRetried={sent} />
        </>
      )}
    </Page>
  )
}
