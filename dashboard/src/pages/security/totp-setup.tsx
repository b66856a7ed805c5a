// Setting up an authenticator app: a new secret (typed into the app, or its otpauth: address opened on the
// device that has the app; no QR code, which would need a library), a code from the app to confirm it,
// then the recovery codes, shown once. Used on the Security screen and on the enrollment-only screen, so
// it needs no signed-in user's details.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { formValues } from '../../sign-in.tsx'
import { ErrorNote, useAction } from '../../ui.tsx'
import { RecoveryCodes } from './recovery-codes.tsx'
import { StepUpFields } from './step-up.tsx'

interface TotpSetupProps {
  /** The level of this part's headings under the page's. */
  level: 2 | 3
  /** Another method is on already: the API then also asks for the password and a code of that method. */
  stepUp: boolean
  /** After the recovery codes were kept. */
  onEnabled: () => void
}

/** The secret in groups of four, easier to type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret

export function TotpSetup({ level, stepUp, onEnabled }: TotpSetupProps) {
  const Heading = level === 2 ? 'h2' : 'h3'
  const { busy, error, run } = useAction()
  const [secret, setSecret] = useState<{ secret: string; otpauth_uri: string } | undefined>()
  const [codes, setCodes] = useState<string[] | undefined>()
  async function start() {
    const data = await run(() => api().POST('/api/v1/auth/mfa/totp'))
    if (data) setSecret(data)
  }
  async function confirm(event: SubmitEvent) {
    const { code, password, current_method, current_code } = formValues(event)
    const body = {
      code: code!.trim(),
      ...(stepUp ? { password, current_method: current_method as 'sms' | 'recovery', current_code: current_code?.trim() } : {}),
    }
    const data = await run(() => api().POST('/api/v1/auth/mfa/totp/confirm', { body }))
    if (data) setCodes(data.recovery_codes)
  }
  if (codes) return <RecoveryCodes level={level} codes={codes} onDone={onEnabled} />
  if (!secret)
    return (
      <div class="security-narrow">
        <p>An authenticator app on your phone (or a password manager) gives a new 6-digit code every 30 seconds.</p>
        <ErrorNote error={error} />
        <button type="button" onClick={start} disabled={busy}>
          Set up an authenticator app
        </button>
      </div>
    )
  return (
    <div class="security-narrow">
      <Heading>Set up an authenticator app</Heading>
      <ol class="security-steps">
        <li>
          In your authenticator app, add an account with this key:
          <code class="security-secret">{grouped(secret.secret)}</code>
          or open this address on the device that has the app: <code class="security-uri">{secret.otpauth_uri}</code>
          <a href={secret.otpauth_uri}>Open in an authenticator app on this device</a>
        </li>
        <li>Type the 6-digit code the app shows.</li>
      </ol>
      <form onSubmit={confirm}>
        <label for="security-totp-code">Code from the app</label>
        <input
          id="security-totp-code"
          name="code"
          inputMode="numeric"
          autocomplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
        />
        {stepUp && <StepUpFields />}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Turn on'}
        </button>
      </form>
    </div>
  )
}
