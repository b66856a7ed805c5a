// "MFA required" on or off. Turning it on signs out every user without MFA at once (the API ends their
// sessions), so it asks first, and says so plainly when the signed-in user has none either.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, useAction } from '../../ui.tsx'
import { Confirm } from './confirm.tsx'
import type { SettingsProps } from './organization.tsx'

export function MfaRequirement({ settings, canUpdate, onSaved, hasMfa }: SettingsProps & { hasMfa: boolean | undefined }) {
  const { busy, error, run } = useAction()
  const [asking, setAsking] = useState(false)
  const [done, setDone] = useState('')
  async function save(required: boolean) {
    setDone('')
    const data = await run(() => api().PATCH('/api/v1/organization/security', { body: { mfa_required: required } }))
    setAsking(false)
    if (!data) return
    onSaved(data)
    setDone(required ? 'MFA is now required.' : 'MFA is no longer required.')
  }
  return (
    <div class="security-part">
      <h3>Multi-factor authentication</h3>
      <p>
        {settings.mfa_required
          ? 'Required: every user must have an authenticator app or a text-message number to use Switchboard.'
          : 'Not required: each user decides whether to turn it on.'}
      </p>
      {canUpdate && !asking && (
        <button
          type="button"
          class={settings.mfa_required ? 'secondary' : ''}
          disabled={busy}
          onClick={() => (settings.mfa_required ? save(false) : setAsking(true))}
        >
          {settings.mfa_required ? 'Stop requiring MFA' : 'Require MFA'}
        </button>
      )}
      {asking && (
        <Confirm confirmLabel="Require MFA for everyone" busy={busy} onConfirm={() => save(true)} onCancel={() => setAsking(false)}>
          Every user without MFA will be signed out now, and at their next sign-in can do nothing but set it up.
          {hasMfa === false && ' You have no MFA yourself: you will be signed out too. Set up your authenticator app below first.'}
        </Confirm>
      )}
      <ErrorNote error={error} />
      <p role="status" class="ok">
        {done}
      </p>
    </div>
  )
}
