// The dashboard's entry: signs a user in through the public API and shows who is signed in.
import { render } from 'preact'
import { useState } from 'preact/hooks'
import { api, setToken } from './api.ts'

interface Me {
  name: string
  email: string
  role: string
}

function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
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
    if (!('access_token' in data)) return setError('This account signs in with a second factor, which the dashboard does not take yet.')
    setToken(data.access_token)
    const me = await api().GET('/api/v1/me')
    if (me.data) onSignedIn(me.data as Me)
  }
  return (
    <main class="card">
      <h1>Sign in to Switchboard</h1>
      <form onSubmit={submit}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
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
