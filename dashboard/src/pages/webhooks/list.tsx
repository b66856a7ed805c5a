// The organization's webhooks: where each sends, what it subscribes to, its state and last success;
// each opens its page. Registering one is offered only to a role with webhook:create.
import { api } from '../../api.ts'
import { ErrorNote, Page, useCan, useLoad, When } from '../../ui.tsx'
import { WebhookStatus } from './status.tsx'

export function WebhookList() {
  const canCreate = useCan('webhook:create')
  // At most 50 webhooks an organization: one page holds them all.
  const { data, error, loading } = useLoad(() => api().GET('/api/v1/webhooks', { params: { query: { page_size: 50 } } }))
  const webhooks = data?.webhooks ?? []
  return (
    <Page
      title="Webhooks"
      intro="Switchboard signs and POSTs your organization's events to these HTTPS endpoints, and records every attempt."
    >
      {canCreate && (
        <p class="actions">
          <a class="webhooks-button" href="/app/webhooks/new">
            New webhook
          </a>
        </p>
      )}
      <ErrorNote error={error} />
      {loading && !data && <p class="muted">Loading…</p>}
      {data && webhooks.length === 0 && <p>No webhooks yet.</p>}
      {webhooks.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="webhooks-caption">Webhooks of the organization</caption>
            <thead>
              <tr>
                <th scope="col">Receiver</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Last success</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((webhook) => (
                <tr key={webhook.id}>
                  <td class="webhooks-receiver">
                    <a href={`/app/webhooks/${webhook.id}`} class="webhooks-url">
                      {webhook.url}
                    </a>
                    {webhook.description && <div class="muted">{webhook.description}</div>}
                  </td>
                  <td class="webhooks-filters">
                    <code>{webhook.events.join(', ')}</code>
                  </td>
                  <td>
                    <WebhookStatus webhook={webhook} />
                  </td>
                  <td>
                    <When at={webhook.last_success_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}
