// Registering a webhook: the form, then its secret shown once; closing the dialog opens the new webhook's page.
import { useState } from 'preact/hooks'
import { navigate } from '../../router.ts'
import { ErrorNote, Page, useCan } from '../../ui.tsx'
import { WebhookForm } from './form.tsx'
import { SecretDialog } from './secret-dialog.tsx'
import type { Webhook } from './status.tsx'

export function NewWebhook() {
  const canCreate = useCan('webhook:create')
  const [created, setCreated] = useState<{ webhook: Webhook; secret: string } | undefined>()
  return (
    <Page title="New webhook" intro="Deliveries of the events you pick start with the next event.">
      <p>
        <a href="/app/webhooks">Back to the webhooks</a>
      </p>
      {canCreate ? (
        <WebhookForm onSaved={(webhook, secret) => setCreated({ webhook, secret: secret! })} onCancel={() => navigate('/webhooks')} />
      ) : (
        <ErrorNote error={{ code: 'INSUFFICIENT_PERMISSIONS', message: 'Registering a webhook needs the webhook:create permission.' }} />
      )}
      {created && (
        <SecretDialog
          title="Webhook created: its signing secret"
          secret={created.secret}
          onClose={() => navigate(`/webhooks/${created.webhook.id}`)}
        />
      )}
    </Page>
  )
}
