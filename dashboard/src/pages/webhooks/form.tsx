// The form that registers a webhook or changes one: its HTTPS URL (the API judges it and says why it
// refuses one), a description, the events, and on registration an optional secret of the user's own.
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { formValues } from '../../sign-in.tsx'
import { ErrorNote, useAction } from '../../ui.tsx'
import { EventPicker } from './event-picker.tsx'
import { filtersOf, selectionOf } from './events.ts'
import { newSecret } from './secret-dialog.tsx'
import type { Webhook } from './status.tsx'

interface Props {
  /** The webhook to change; none to register a new one. */
  webhook?: Webhook
  /** Saved: the webhook as the API answered, and on registration the secret it was given. */
  onSaved: (webhook: Webhook, secret?: string) => void
  onCancel?: () => void
}

/** What the API said about the URL field, if it refused it. */
function urlProblem(error: unknown): string | undefined {
  return (error as Partial<Schemas['Error']> | undefined)?.errors?.find((e) => e.field === 'url')?.message
}

export function WebhookForm({ webhook, onSaved, onCancel }: Props) {
  const [selection, setSelection] = useState(() => selectionOf(webhook?.events ?? ['ticket.*']))
  const [kept, setKept] = useState(() => new Set(selection.others))
  const { busy, error, setError, run } = useAction()
  async function submit(event: SubmitEvent) {
    const { url, description, secret: own } = formValues(event)
    const events = filtersOf(selection, [...kept])
    if (events.length === 0) return setError({ message: 'Pick at least one event.' })
    if (webhook) {
      const body = { url: url!.trim(), description: description!.trim() || null, events }
      const saved = await run(() => api().PATCH('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body }))
      if (saved) onSaved(saved)
      return
    }
    const secret = own?.trim() || newSecret()
    const body = { url: url!.trim(), events, secret, ...(description?.trim() ? { description: description.trim() } : {}) }
    const created = await run(() => api().POST('/api/v1/webhooks', { body }))
    if (created) onSaved(created, secret)
  }
  const refused = urlProblem(error)
  return (
    <form onSubmit={submit} class="webhooks-form">
      <label for="webhooks-url">Receiver URL</label>
      <input
        id="webhooks-url"
        name="url"
        type="url"
        required
        placeholder="https://hooks.example.com/switchboard"
        defaultValue={webhook?.url}
        aria-describedby="webhooks-url-hint"
        aria-invalid={refused ? true : undefined}
      />
      <p id="webhooks-url-hint" class={refused ? 'error' : 'muted'}>
        {refused
          ? `The server refused this URL: it ${refused}.`
          : 'Only https is accepted, and not a private, loopback or link-local address: the server checks it and says why it refuses one.'}
      </p>
      <label for="webhooks-description">Description (optional)</label>
      <input id="webhooks-description" name="description" maxLength={500} defaultValue={webhook?.description ?? ''} />
      {!webhook && (
        <>
          <label for="webhooks-own-secret">Signing secret (optional)</label>
          <input
            id="webhooks-own-secret"
            name="secret"
            autocomplete="off"
            minLength={16}
            maxLength={256}
            aria-describedby="webhooks-secret-hint"
          />
          <p id="webhooks-secret-hint" class="muted">
            16 to 256 characters; leave it empty for a random one. It is shown once, after the webhook is created.
          </p>
        </>
      )}
      <EventPicker
        selection={selection}
        kept={kept}
        onChange={(next, nextKept) => {
          setSelection(next)
          setKept(nextKept)
        }}
      />
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : webhook ? 'Save changes' : 'Create webhook'}
        </button>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}
