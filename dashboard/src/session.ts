// The signed-in session: the access token in memory, renewed before it expires by spending the HttpOnly
// refresh cookie (POST /api/v1/auth/refresh with no refresh_token). Refreshes of every tab of this origin
// are serialised with a Web Lock: two tabs spending the same cookie value would be reuse, which ends the
// session.
import { api, setToken } from './api.ts'

export interface Tokens {
  access_token: string
  expires_in: number
}

let timer: ReturnType<typeof setTimeout> | undefined
let onEnded: (() => void) | undefined
/** When the access token is due for renewal (ms); a machine waking from sleep may be past it. */
let renewAt = 0

// A timer does not run while the machine sleeps: on waking, renew at once if the token is due.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && renewAt > 0 && Date.now() >= renewAt) void renew()
})

async function renew(): Promise<void> {
  renewAt = 0
  if (!(await resume())) onEnded?.()
}

/** Called when the session ends on its own (a refresh refused): the app shows the sign-in again. */
export function whenSessionEnds(callback: () => void): void {
  onEnded = callback
}

/** Keeps the tokens of a sign-in or a refresh, and renews them at 80 % of their life. */
export function adopt(tokens: Tokens): void {
  setToken(tokens.access_token)
  clearTimeout(timer)
  const delay = Math.max(5, tokens.expires_in * 0.8) * 1000
  renewAt = Date.now() + delay
  timer = setTimeout(renew, delay)
}

function withLock<T>(task: () => Promise<T>): Promise<T> {
  // Web Locks exist in secure contexts (https, localhost); elsewhere a tab refreshes on its own.
  const locks = (navigator as Navigator & { locks?: LockManager }).locks
  return locks ? (locks.request('switchboard-refresh', task) as Promise<T>) : task()
}

/** Spends the refresh cookie for a new access token; false when there is no live session. */
export function resume(): Promise<boolean> {
  return withLock(async () => {
    const { data } = await api().POST('/api/v1/auth/refresh', { body: { refresh_cookie: true } })
    if (!data) {
      setToken(undefined)
      return false
    }
    adopt(data)
    return true
  })
}

/** Ends the session on the server (the cookie is cleared by the answer) and forgets the token. */
export async function signOut(): Promise<void> {
  clearTimeout(timer)
  renewAt = 0
  await api().POST('/api/v1/auth/logout')
  setToken(undefined)
}
