// The dashboard's entry: signs a user in through the public API (a password, then TOTP, a text message
// or a recovery code when enrolled) and shows who is signed in.
import { render } from 'preact'
import { useState } from 'preact/hooks'
import { api, setToken } from './api.ts'

interface Me {
  name: string
  email: string
  role: string
}

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

/** Signs in with the tokens of a login or an MFA check: the access token is kept, then the user is read. */
async function finishSignIn(accessToken: string, onSignedIn: (me: Me) => void): Promise<void> {
  setToken(accessToken)
  const me = await api().GET('/api/v1/me')
  if (me.data) onSignedIn(me.data as Me)
}

function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const [challenge, setChallenge] = useState<Challenge | undefined>()
  async function submit(event: SubmitEvent) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setBusy(true)
    setError(undefined)
    const { data, error: failed } = await api().POST('/api/v1/auth/login', {
      body: { email: String(form.get('email')), password: String(form.get('password')) },
    })
    setBusy(false)
    if (failed || !data) return setError(failed?.message ?? 'Sign-in failed')
    if ('access_token' in data) return finishSignIn(data.access_token, onSignedIn)
    setChallenge({ mfaToken: data.mfa_token, methods: [...data.mfa_methods, 'recovery'] })
  }
  async function verify(event: SubmitEvent) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setBusy(true)
    setError(undefined)
    const { data, error: failed } = await api().POST('/api/v1/auth/mfa/verify', {
      body: { mfa_token: challenge!.mfaToken, method: String(form.get('method')) as Method, code: String(form.get('code')).trim() },
    })
    setBusy(false)
    if (failed || !data) return setError(failed?.message ?? 'The code was not accepted')
    return finishSignIn(data.access_token, onSignedIn)
  }
  const alert = error && (
    <p role="alert" class="error">
      {error}
    </p>
  )
  if (challenge)
    return (
      <main class="card">
        <h1>Second step</h1>
        <form onSubmit={verify}>
          <label for="method">Method</label>
          <select id="method" name="method">
            {challenge.methods.map((method) => (
              <option value={method}>{METHOD_LABELS[method]}</option>
            ))}
          </select>
          <label for="code">Code</label>
          <input id="code" name="code" autocomplete="one-time-code" required />
          {alert}
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Verify'}
          </button>
        </form>
      </main>
    )
  return (
    <main class="card">
      <h1>Sign in to Switchboard</h1>
      <form onSubmit={submit}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        {alert}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}

function App() {
  const [me, setMe] = useState<Me | undefined>()
  async function signOut() {
    await api().POST('/api/v1/auth/logout')
    setToken(undefined)
    setMe(undefined)
  }
  if (!me) return <SignIn onSignedIn={setMe} />
  return (
    <main class="card">
      <h1>Switchboard</h1>
      <p>
        Signed in as <strong>{me.name}</strong> ({me.email}, {me.role.replace('_', ' ')}).
      </p>
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </main>
  )
}

render(<App />, document.getElementById('app')!)
