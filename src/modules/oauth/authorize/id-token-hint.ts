// id_token_hint of RP-initiated logout: an ID token we signed (one of our keys, our issuer). Expired is
// fine: a hint names the client and the user, it authorizes nothing. Checked with jose, off the hot path.
import { compactVerify, decodeProtectedHeader } from 'jose'
import type { AppContext } from '../../../context.ts'

export interface HintClaims {
  /** Audiences: the client ids the token was issued to. */
  audiences: string[]
  sub: string | undefined
}

/** The hint's claims when we signed it for our issuer; undefined otherwise (then it is ignored). */
export async function verifyIdTokenHint(app: Pick<AppContext, 'keys' | 'config'>, token: string): Promise<HintClaims | undefined> {
  if (token.length > 8192) return undefined
  try {
    const { kid, alg } = decodeProtectedHeader(token)
    if (alg !== 'RS256' || typeof kid !== 'string') return undefined
    let key = app.keys.verificationKey(kid)
    if (!key && (await app.keys.reloadKeys())) key = app.keys.verificationKey(kid)
    if (!key) return undefined
    const { payload } = await compactVerify(token, key, { algorithms: ['RS256'] })
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>
    if (claims.iss !== app.config.authUrl) return undefined
    const aud = claims.aud
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : []
    if (audiences.length === 0) return undefined
    return { audiences, sub: typeof claims.sub === 'string' ? claims.sub : undefined }
  } catch {
    return undefined
  }
}
