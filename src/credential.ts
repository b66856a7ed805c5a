// The credential a request presents: `Authorization: Bearer <token>` (an access token or a personal
// access token) or `X-API-Key: <personal access token>`. Never from the URL, never two at once.
import { AppError } from './errors.ts'
import { looksLikePersonalAccessToken } from './lib/personal-access-token.ts'

export type PresentedCredential = { kind: 'jwt'; token: string } | { kind: 'api_key'; token: string }

const REALM = 'Bearer realm="switchboard"'

/**
 * RFC 6750 §3: error_description is printable ASCII without `"` or `\`; a header value outside
 * ASCII would not even be sent (the runtime refuses it), so the message is folded to fit.
 */
function challengeDescription(message: string): string {
  return message
    .replaceAll('…', '...')
    .replace(/["\\]/g, "'")
    .replace(/[^\x20-\x7e]/g, '?')
}

export function unauthorized(code: 'UNAUTHENTICATED' | 'TOKEN_INVALID' | 'TOKEN_EXPIRED', message: string): AppError {
  const challenge =
    code === 'UNAUTHENTICATED' ? REALM : `${REALM}, error="invalid_token", error_description="${challengeDescription(message)}"`
  return new AppError(code, message, { headers: { 'www-authenticate': challenge } })
}

/** The 401 of a request that presents no credential at all. */
export function missingCredential(): AppError {
  return unauthorized('UNAUTHENTICATED', 'Send an access token: Authorization: Bearer <token>')
}

export function presentedCredential(request: Request): PresentedCredential {
  // The substring test first: parsing the URL of every request would cost more than the check.
  if (request.url.includes('access_token') && new URL(request.url).searchParams.has('access_token')) {
    throw unauthorized('TOKEN_INVALID', 'Tokens must be sent in the Authorization header, never in the URL')
  }
  const header = request.headers.get('authorization')
  const apiKey = request.headers.get('x-api-key')
  if (apiKey !== null) {
    if (header !== null) throw unauthorized('TOKEN_INVALID', 'Send one credential: Authorization or X-API-Key, not both')
    const token = apiKey.trim()
    if (!looksLikePersonalAccessToken(token)) throw unauthorized('TOKEN_INVALID', 'X-API-Key takes a personal access token (pat_live_…)')
    return { kind: 'api_key', token }
  }
  if (header === null || header.trim() === '') throw missingCredential()
  const match = /^Bearer +(\S+)$/i.exec(header.trim())
  if (!match) throw unauthorized('TOKEN_INVALID', 'The Authorization header must be "Bearer <token>"')
  const token = match[1]!
  return looksLikePersonalAccessToken(token) ? { kind: 'api_key', token } : { kind: 'jwt', token }
}
