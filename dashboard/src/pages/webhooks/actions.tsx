// What may be done to a webhook as a whole: turn it off or back on (which clears its failure state),
// rotate its secret (the new one shown once), delete it. Each needs its permission, and the last two ask first.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { navigate } from '../../router.ts'
import { ErrorNote, useAction, useCan } from '../../ui.tsx'
import { newSecret, SecretDialog } from './secret-dialog.tsx'
import type { Webhook } from './status.tsx'

type Asking = 'rotate' | 'delete' | undefined

export function WebhookActions({ webhook, onChanged }: { webhook: Webhook; onChanged: () => void }) {
  const canUpdate = useCan('webhook:update')
  const canDelete = useCan('webhook:delete')
  const { busy, error, run } = useAction()
  const [asking, setAsking] = useState<Asking>()
  const [secret, setSecret] = useState<string | undefined>()
  const path = { params: { path: { id: webhook.id } } }
  if (!canUpdate && !canDelete) return null
  async function toggle() {
    if (await run(() => api().PATCH('/api/v1/webhooks/{id}', { ...path, body: { enabled: !webhook.enabled } }))) onChanged()
  }
  async function rotate() {
    const next = newSecret()
    if (await run(() => api().PATCH('/api/v1/webhooks/{id}', { ...path, body: { secret: next } }))) {
      setAsking(undefined)
      setSecret(next)
    }
  }
  async function remove() {
    await run(async () => {
      const answer = await api().DELETE('/api/v1/webhooks/{id}', path)
      if (answer.error === undefined) navigate('/webhooks')
      return answer
    })
  }
  return (
    <section class="panel" aria-labelledby="webhooks-actions">
      <h2 id="webhooks-actions">Actions</h2>
      <div class="actions">
        {canUpdate && (
          <button type="button" class={webhook.enabled ? 'secondary' : ''} disabled={busy} onClick={toggle}>
            {webhook.enabled ? 'Disable webhook' : 'Enable webhook'}
          </button>
        )}
        {canUpdate && (
          <button type="button" class="secondary" disabled={busy} onClick={() => setAsking('rotate')}>
            Rotate secret
          </button>
        )}
        {canDelete && (
          <button type="button" class="secondary" disabled={busy} onClick={() => setAsking('delete')}>
            Delete webhook
          </button>
        )}
      </div>
      {!webhook.enabled && canUpdate && (
        <p class="muted">Enabling clears the failure count; then recover below what was not delivered while it was off.</p>
      )}
      {asking && (
        <div class="webhooks-confirm">
          <p>
            {asking === 'rotate'
              ? 'Rotate the secret? Deliveries from now on are signed with a new one, which your receiver must know.'
              : 'Delete this webhook with all its delivery records? This cannot be undone.'}
          </p>
          <div class="actions">
            <button type="button" class="danger" disabled={busy} onClick={asking === 'rotate' ? rotate : remove}>
              {asking === 'rotate' ? 'Rotate the secret' : 'Delete for good'}
            </button>
            <button type="button" class="secondary" onClick={() => setAsking(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={error} />
      {secret && <SecretDialog title="The new signing secret" secret={secret} onClose={() => setSecret(undefined)} />}
    </section>
  )
}
