// The sign-in screen: e-mail and password, then the second step (authenticator app, text message or a
// recovery code) when the user is enrolled. Asks for the refresh cookie, so a reload stays signed in.
import { useState } from 'preact/hooks'
import { api } from './api.ts'
import { adopt, type Tokens } from './session.ts'
import { ErrorNote, useAction } from './ui.tsx'

type Method = 'totp' | 'sms' | 'recovery'
interface Challenge {
  mfaToken: string
  methods: Method[]
}

const METHOD_LABELS: Record<Method, string> = {
  totp: 'Authenticator app',
  sms: 'Text message',
  recovery: 'Recovery code',
}

/** The values of a submitted form, by field name. */
export function formValues(event: SubmitEvent): Record<string, string> {
  event.preventDefault()
  const values: Record<string, string> = {}
  for (const [name, value] of new FormData(event.currentTarget as HTMLFormElement)) values[name] = String(value)
  return values
}

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [challenge, setChallenge] = useState<Challenge | undefined>()
  const { busy, error, run } = useAction()
  function finish(tokens: Tokens) {
    adopt(tokens)
    onSignedIn()
  }
  async function submit(event: SubmitEvent) {
    const { email, password } = formValues(event)
    const data = await run(() => api().POST('/api/v1/auth/login', { body: { email: email!, password: password!, refresh_cookie: true } }))
    if (!data) return
    if ('access_token' in data) return finish(data)
    setChallenge({ mfaToken: data.mfa_token, methods: [...data.mfa_methods, 'recovery'] })
  }
  async function verify(event: SubmitEvent) {
    const { method, code } = formValues(event)
    const body = { mfa_token: challenge!.mfaToken, method: method as Method, code: code!.trim(), refresh_cookie: true }
    const data = await run(() => api().POST('/api/v1/auth/mfa/verify', { body }))
    if (data) finish(data)
  }
  const [method, setMethod] = useState<Method | undefined>()
  const [sent, setSent] = useState<string | undefined>()
  async function sendSms() {
    const data = await run(() => api().POST('/api/v1/auth/mfa/sms/send', { body: { mfa_token: challenge!.mfaToken } }))
    if (data) setSent(`A code was sent to ${data.phone}.`)
  }
  if (challenge)
    return (
      <main class="card" id="main">
        <h1>Second step</h1>
        <form onSubmit={verify}>
          <label for="method">Method</label>
          <select id="method" name="method" onChange={(event) => setMethod((event.currentTarget as HTMLSelectElement).value as Method)}>
            {challenge.methods.map((method) => (
              <option value={method}>{METHOD_LABELS[method]}</option>
            ))}
          </select>
          <label for="code">Code</label>
          <input id="code" name="code" autocomplete="one-time-code" required />
          {(method ?? challenge.methods[0]) === 'sms' && (
            <button type="button" class="secondary" onClick={sendSms} disabled={busy}>
              Text me a code
            </button>
          )}
          {sent && <p role="status">{sent}</p>}
          <ErrorNote error={error} />
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Verify'}
          </button>
        </form>
      </main>
    )
  return (
    <main class="card" id="main">
      <h1>Sign in to Switchboard</h1>
      <form onSubmit={submit}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
