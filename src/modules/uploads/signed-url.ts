// Signed download URLs: `{PUBLIC_URL}/api/v1/files/{id}?expires=<unix s>&signature=<base64url>`, where
// the signature is HMAC-SHA256 over the id and the expiry with a key derived from the master key (so
// every instance of a cluster, sharing MASTER_KEY, honours every other's URLs). Anyone holding one may
// download until it expires (SIGNED_URL_TTL, default 300 s): what a player or a browser needs, without
// a token. Checked signature first, in constant time; then the expiry.
import type { AppContext } from '../../context.ts'
import { isoTime } from '../../lib/clock.ts'
import { constantTimeEqual, hmacSha256 } from '../../lib/hmac.ts'

export const FILES_PATH = '/api/v1/files'

const keys = new WeakMap<Uint8Array, string>()

/** The URL-signing key: derived, so a signature never reveals anything of the master key or of other keys. */
function signingKey(masterKey: Uint8Array): string {
  let key = keys.get(masterKey)
  if (!key) keys.set(masterKey, (key = hmacSha256(masterKey, 'switchboard upload download urls v1', 'base64url')))
  return key
}

function signature(masterKey: Uint8Array, id: string, expiresS: number): string {
  return hmacSha256(signingKey(masterKey), `${id}\n${expiresS}`, 'base64url')
}

export function signUploadUrl(
  app: Pick<AppContext, 'config' | 'masterKey'>,
  row: { id: string },
  now: number,
): { url: string; expires_at: string } {
  const expiresS = Math.floor(now / 1000) + app.config.uploads.signedUrlTtlS
  const query = new URLSearchParams({ expires: String(expiresS), signature: signature(app.masterKey, row.id, expiresS) })
  return { url: `${app.config.publicUrl}${FILES_PATH}/${encodeURIComponent(row.id)}?${query}`, expires_at: isoTime(expiresS * 1000) }
}

export type SignedUrlCheck = 'valid' | 'forged' | 'expired'

/** Whether a signed URL's parts are ours and still valid at `now`. */
export function checkSignedUrl(
  app: Pick<AppContext, 'masterKey'>,
  id: string,
  expires: string,
  given: string,
  now: number,
): SignedUrlCheck {
  if (!/^\d{1,12}$/.test(expires)) return 'forged'
  const expiresS = Number(expires)
  if (!constantTimeEqual(signature(app.masterKey, id, expiresS), given)) return 'forged'
  return now < expiresS * 1000 ? 'valid' : 'expired'
}
