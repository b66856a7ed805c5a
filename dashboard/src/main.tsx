// The dashboard's entry: resumes the session from the refresh cookie (or shows the sign-in), then the
// frame of every screen: the navigation the user's role may use, who is signed in, and the screen.
import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api } from './api.ts'
import { followLink, navigate, useLocation } from './router.ts'
import { MfaEnrollmentRequired, needsMfaEnrollment } from './pages/security.tsx'
import { SCREENS, screenOf } from './screens.ts'
import { resume, signOut, whenSessionEnds } from './session.ts'
import { SignIn } from './sign-in.tsx'
import { allows, type Me, MeContext, Page, ReloadMeContext } from './ui.tsx'

function Home({ me }: { me: Me }) {
  const open = SCREENS.filter((screen) => !screen.permission || allows(me.permissions, screen.permission))
  return (
    <Page title="Switchboard">
      <p>
        Signed in as <strong>{me.name}</strong> ({me.email}, {me.role.replace('_', ' ')}).
      </p>
      <ul class="tiles">
        {open.map((screen) => (
          <li>
            <a href={`/app${screen.path}`}>{screen.title}</a>
          </li>
        ))}
      </ul>
    </Page>
  )
}

function Shell({ me, onSignOut, reloadMe }: { me: Me; onSignOut: () => void; reloadMe: () => void }) {
  const { path } = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const found = screenOf(path)
  useEffect(() => setMenuOpen(false), [path])
  if (!found && path !== '/') navigate('/', true)
  const visible = SCREENS.filter((screen) => !screen.permission || allows(me.permissions, screen.permission))
  return (
    <MeContext.Provider value={me}>
      <ReloadMeContext.Provider value={reloadMe}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="bar">
          <a class="brand" href="/app/">
            Switchboard
          </a>
          <button type="button" class="secondary menu" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
            Menu
          </button>
          <span class="who">
            {me.name} · {me.role.replace('_', ' ')}
          </span>
          <button type="button" class="secondary" onClick={onSignOut}>
            Sign out
          </button>
        </header>
        <div class="layout">
          <nav id="nav" aria-label="Main" class={menuOpen ? 'open' : ''}>
            <ul>
              {visible.map((screen) => (
                <li>
                  <a href={`/app${screen.path}`} aria-current={found?.screen === screen ? 'page' : undefined}>
                    {screen.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <main id="main" tabIndex={-1}>
            {found ? <found.screen.view rest={found.rest} /> : <Home me={me} />}
          </main>
        </div>
      </ReloadMeContext.Provider>
    </MeContext.Provider>
  )
}

function App() {
  const [me, setMe] = useState<Me | undefined>()
  const [resuming, setResuming] = useState(true)
  // The organization requires MFA and the user has none: the tokens reach only MFA enrollment (/me is 403).
  const [enroll, setEnroll] = useState(false)
  async function loadMe() {
    const { data, error } = await api().GET('/api/v1/me')
    setEnroll(needsMfaEnrollment(error))
    setMe(data)
  }
  useEffect(() => {
    whenSessionEnds(() => setMe(undefined))
    resume()
      .then((live) => (live ? loadMe() : undefined))
      .finally(() => setResuming(false))
  }, [])
  async function end() {
    await signOut()
    setEnroll(false)
    setMe(undefined)
  }
  if (resuming) return <p class="card">Loading…</p>
  if (enroll) return <MfaEnrollmentRequired onSignOut={end} />
  if (!me) return <SignIn onSignedIn={loadMe} />
  return <Shell me={me} onSignOut={end} reloadMe={loadMe} />
}

document.addEventListener('click', followLink)
render(<App />, document.getElementById('app')!)
