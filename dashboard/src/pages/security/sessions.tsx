// The signed-in user's sessions (GET /api/v1/auth/sessions): device, address, how and when signed in, last
// seen; this one marked; ending one, or every other one (one DELETE each: the API has no bulk end).
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { ErrorNote, useAction, When } from '../../ui.tsx'

type Session = Schemas['Session']

/** A short name for a user agent: "Firefox on Linux", or the agent itself when it is no known browser. */
export function deviceOf(agent: string | null): string {
  if (!agent) return 'Unknown device'
  const browser = [/Edg\//, /Firefox\//, /Chrome\//, /Safari\//].findIndex((pattern) => pattern.test(agent))
  const system = [/Windows/, /Android/, /iPhone|iPad/, /Mac OS X/, /Linux/].findIndex((pattern) => pattern.test(agent))
  if (browser < 0) return agent.length > 60 ? `${agent.slice(0, 60)}…` : agent
  const name = ['Edge', 'Firefox', 'Chrome', 'Safari'][browser]
  return system < 0 ? name! : `${name} on ${['Windows', 'Android', 'iOS', 'macOS', 'Linux'][system]}`
}

/** How a session signed in, from its RFC 8176 methods. */
function methodsOf(session: Session): string {
  const { auth_methods: amr } = session
  const second = amr.includes('otp')
    ? ' and authenticator app'
    : amr.includes('sms')
      ? ' and text message'
      : amr.includes('mfa')
        ? ' and recovery code'
        : ''
  return `Password${second}${session.mfa_enrollment_only ? ' (MFA setup only)' : ''}`
}

export function MySessions({ sessions, reload }: { sessions: Session[]; reload: () => void }) {
  const { busy, error, run } = useAction()
  const [done, setDone] = useState('')
  const others = sessions.filter((session) => !session.current)
  async function end(ids: string[]) {
    setDone('')
    let ended = 0
    for (const id of ids) {
      const ok = await run(async () => {
        const { error } = await api().DELETE('/api/v1/auth/sessions/{id}', { params: { path: { id } } })
        return error === undefined ? { data: true } : { error }
      })
      if (!ok) break
      ended++
    }
    if (ended > 0) setDone(ended === 1 ? 'Ended 1 session.' : `Ended ${ended} sessions.`)
    reload()
  }
  return (
    <>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span class="security-sr">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr>
                <td>
                  {deviceOf(session.user_agent)}
                  {session.current && <strong class="security-current"> · this session</strong>}
                  <br />
                  <span class="muted">{methodsOf(session)}</span>
                </td>
                <td>{session.ip ?? <span class="muted">unknown</span>}</td>
                <td>
                  <When at={session.created_at} />
                </td>
                <td>
                  <When at={session.last_seen_at} />
                </td>
                <td>
                  {!session.current && (
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy}
                      aria-label={`End session: ${deviceOf(session.user_agent)}, ${session.ip ?? 'unknown address'}, signed in ${new Date(session.created_at).toLocaleString()}`}
                      onClick={() => end([session.id])}
                    >
                      End
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {others.length > 0 && (
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={() => end(others.map((session) => session.id))}>
            End all other sessions
          </button>
        </div>
      )}
      <ErrorNote error={error} />
      <p role="status" class="ok">
        {done}
      </p>
    </>
  )
}
