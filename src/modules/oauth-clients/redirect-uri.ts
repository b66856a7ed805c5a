// Redirect URIs: what may be registered (absolute, no fragment, https; http only on loopback; a private-use scheme for public clients) and how one presented at authorization time matches (RFC 8252).
import type { ClientType } from './table.ts'

export const MAX_URI_LENGTH = 2048

const LOOPBACK = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(?::(\d{1,5}))?([/?].*)?$/
// RFC 8252 §7.1: a private-use scheme is a reverse domain name, e.g. com.example.app.
const PRIVATE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:/i

/** Why `text` cannot be registered as a redirect URI of a `type` client, or undefined when it can. */
export function redirectUriProblem(text: string, type: ClientType): string | undefined {
  if (text.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'must be an absolute URI'
  }
  if (text.includes('#')) return 'must not have a fragment'
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    if (url.username !== '' || url.password !== '') return 'must not carry credentials'
    if (url.protocol === 'http:' && !LOOPBACK.test(text))
      return 'must use https (http only on loopback: http://127.0.0.1, http://[::1] or http://localhost)'
    return undefined
  }
  if (type !== 'public') return 'must use https (a private-use scheme such as com.example.app:/cb is for public clients only)'
  if (!PRIVATE_SCHEME.test(text)) return 'a private-use scheme must be a reverse domain name, such as com.example.app:/cb'
  return undefined
}

/**
 * True when `presented` is `registered`: the same string, or, for a loopback http URI, the same string
 * but for the port, which a native app picks when it starts listening (RFC 8252 §7.3).
 */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (presented.includes('#')) return false
  if (registered === presented) return true
  const a = LOOPBACK.exec(registered)
  const b = LOOPBACK.exec(presented)
  if (!a || !b) return false
  const portOk = b[2] === undefined || (Number(b[2]) >= 1 && Number(b[2]) <= 65535)
  return portOk && a[1] === b[1] && (a[3] ?? '') === (b[3] ?? '')
}
