// The screen of a user who must enroll in MFA first: the organization requires it and the user has none,
// so the sign-in gave tokens that reach only the MFA enrollment endpoints (GET /api/v1/me answers 403
// MFA_ENROLLMENT_REQUIRED). Shown by main.tsx in place of the frame, which needs /api/v1/me.
import { useEffect, useState } from 'preact/hooks'
import { navigate } from '../../router.ts'
import { TotpSetup } from './totp-setup.tsx'

/** Whether an API error (e.g. of GET /api/v1/me) means "enroll in MFA first". */
export function needsMfaEnrollment(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'MFA_ENROLLMENT_REQUIRED'
}

/** `onSignOut` ends the session (session.ts signOut) and shows the sign-in again. */
export function MfaEnrollmentRequired({ onSignOut }: { onSignOut: () => void }) {
  const [enrolled, setEnrolled] = useState(false)
  useEffect(() => {
    document.title = 'Set up multi-factor authentication · Switchboard'
    // After signing in again, the user lands on the Security screen, where the new method shows.
    navigate('/security', true)
  }, [])
  return (
    <main class="card security-enroll" id="main">
      <h1>Set up multi-factor authentication</h1>
      <p>
        Your organization requires multi-factor authentication, and your account has none yet. Until you set it up, this is all you can do:
        add an authenticator app, type a code from it, keep your recovery codes, then sign in again.
      </p>
      {enrolled ? (
        <>
          <p role="status" class="ok">
            Multi-factor authentication is on. Sign in again, with a code from your app, to use Switchboard.
          </p>
          <button type="button" onClick={onSignOut}>
            Sign in again
          </button>
        </>
      ) : (
        <>
          <TotpSetup level={2} stepUp={false} onEnabled={() => setEnrolled(true)} />
          <div class="actions">
            <button type="button" class="secondary" onClick={onSignOut}>
              Sign out
            </button>
          </div>
        </>
      )}
    </main>
  )
}
