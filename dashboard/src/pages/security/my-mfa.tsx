// The signed-in user's own MFA: what is on, setting up an authenticator app, or turning it off (password
// and a code, as the API requires). Text-message numbers are set through the API; here they are shown.
import type { paths } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { formValues } from '../../sign-in.tsx'
import { ErrorNote, useAction } from '../../ui.tsx'
import { TotpSetup } from './totp-setup.tsx'

type MfaStatus = paths['/api/v1/auth/mfa']['get']['responses'][200]['content']['application/json']

export function MyMfa({ status, reload }: { status: MfaStatus; reload: () => void }) {
  const { totp, sms } = status
  return (
    <>
      <ul class="security-facts">
        <li>Authenticator app: {totp.enabled ? <strong>on</strong> : 'off'}</li>
        <li>Text message: {sms.enabled ? <strong>on ({sms.phone})</strong> : 'off'}</li>
        {(totp.enabled || sms.enabled) && <li>Recovery codes left: {status.recovery_codes_remaining}</li>}
      </ul>
      {totp.enabled ? <TotpRemove onRemoved={reload} /> : <TotpSetup level={3} stepUp={sms.enabled} onEnabled={reload} />}
    </>
  )
}

function TotpRemove({ onRemoved }: { onRemoved: () => void }) {
  const { busy, error, run } = useAction()
  async function remove(event: SubmitEvent) {
    const { password, code } = formValues(event)
    const body = { password: password!, code: code!.trim() }
    const result = await run(async () => {
      const { error, response } = await api().DELETE('/api/v1/auth/mfa/totp', { body })
      return error === undefined ? { data: response.status } : { error }
    })
    if (result) onRemoved()
  }
  return (
    <form class="security-narrow" onSubmit={remove}>
      <h3>Turn off the authenticator app</h3>
      <label for="security-remove-password">Your password</label>
      <input id="security-remove-password" name="password" type="password" autocomplete="current-password" required />
      <label for="security-remove-code">Code from the app</label>
      <input id="security-remove-code" name="code" autocomplete="one-time-code" required />
      <ErrorNote error={error} />
      <button type="submit" class="danger" disabled={busy}>
        Turn off the authenticator app
      </button>
    </form>
  )
}
