// The form that creates a personal access token: a name, an expiry from presets (at most a year, the
// API's limit) and either all of the user's permissions or some of them, picked one by one.
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { ErrorNote, useAction, useLoad, useMe } from '../../ui.tsx'
import { byResource, expandGrants, resourceLabel } from './grants.ts'

export type CreatedKey = Schemas['ApiKey'] & { token: string }

const DAY = 24 * 60 * 60 * 1000
const PRESETS = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
]

/** The expiry of a preset; a year is cut an hour short so a browser clock ahead of the server's stays within the API's limit. */
function expiryOf(days: number, now = Date.now()): Date {
  return new Date(now + days * DAY - (days >= 365 ? 60 * 60 * 1000 : 0))
}

export function CreateKey({ onCreated, onCancel }: { onCreated: (key: CreatedKey) => void; onCancel: () => void }) {
  const me = useMe()
  const vocabulary = useLoad(() => api().GET('/api/v1/permissions'))
  const [days, setDays] = useState(30)
  const [some, setSome] = useState(false)
  const { busy, error, setError, run } = useAction()
  const mine = byResource(expandGrants(me.permissions, vocabulary.data?.permissions ?? []))
  async function submit(event: SubmitEvent) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const permissions = form.getAll('permission').map(String)
    if (some && permissions.length === 0) return setError({ message: 'Choose at least one permission, or give the key all of yours.' })
    const body = {
      name: String(form.get('name')).trim(),
      expires_at: expiryOf(days).toISOString(),
      ...(some ? { permissions } : {}),
    }
    const created = await run(() => api().POST('/api/v1/api-keys', { body }))
    if (created) onCreated(created)
  }
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="api-keys-new">
      <h2 id="api-keys-new">New API key</h2>
      <label for="api-keys-name">Name</label>
      <input id="api-keys-name" name="name" required maxLength={100} aria-describedby="api-keys-name-hint" />
      <p id="api-keys-name-hint" class="muted api-keys-hint">
        What the key is for, e.g. "Nightly export".
      </p>
      <label for="api-keys-expiry">Expires after</label>
      <select
        id="api-keys-expiry"
        value={days}
        aria-describedby="api-keys-expiry-hint"
        onChange={(e) => setDays(Number(e.currentTarget.value))}
      >
        {PRESETS.map((preset) => (
          <option value={preset.days}>{preset.label}</option>
        ))}
      </select>
      <p id="api-keys-expiry-hint" class="muted api-keys-hint">
        It stops working on {expiryOf(days).toLocaleDateString()}. A key lasts a year at most.
      </p>
      <fieldset>
        <legend>Permissions</legend>
        <label class="api-keys-choice">
          <input type="radio" name="scope" checked={!some} onChange={() => setSome(false)} /> All of mine, as my role allows at each use
        </label>
        <label class="api-keys-choice">
          <input type="radio" name="scope" checked={some} onChange={() => setSome(true)} /> Only the ones I choose
        </label>
        {some && <ErrorNote error={vocabulary.error} />}
        {some && (
          <div class="api-keys-grid">
            {mine.map(([resource, permissions]) => (
              <fieldset>
                <legend>{resourceLabel(resource)}</legend>
                {permissions.map((permission) => (
                  <label class="api-keys-choice">
                    <input type="checkbox" name="permission" value={permission} /> {permission}
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
        )}
      </fieldset>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
