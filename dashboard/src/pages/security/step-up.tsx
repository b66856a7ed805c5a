// The step-up the API asks for when MFA is already on and another method is added: the password and a code
// of a method already on (a texted code, sent on request, or a recovery code).
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, useAction } from '../../ui.tsx'

export function StepUpFields() {
  const { busy, error, run } = useAction()
  const [sent, setSent] = useState('')
  async function text() {
    const data = await run(() => api().POST('/api/v1/auth/mfa/step-up/sms'))
    if (data) setSent(`A code was sent to ${data.phone}.`)
  }
  return (
    <fieldset>
      <legend>Confirm it is you</legend>
      <label for="security-stepup-password">Your password</label>
      <input id="security-stepup-password" name="password" type="password" autocomplete="current-password" required />
      <label for="security-stepup-method">Code of</label>
      <select id="security-stepup-method" name="current_method">
        <option value="sms">a text message</option>
        <option value="recovery">a recovery code</option>
      </select>
      <label for="security-stepup-code">Code</label>
      <input id="security-stepup-code" name="current_code" autocomplete="one-time-code" required />
      <button type="button" class="secondary" onClick={text} disabled={busy}>
        Text me a code
      </button>
      <p role="status">{sent}</p>
      <ErrorNote error={error} />
    </fieldset>
  )
}
