// After the transaction that issued them committed: the access token is signed, then the ID token (its
// at_hash needs the signed access token), and the token response is put together (RFC 6749 §5.1).
import type { AppContext } from '../../../context.ts'
import type { PendingClientTokens } from '../../auth/index.ts'
import { idTokenClaims, type SignIn } from './id-token.ts'

export interface TokenResponseBody {
  access_token: string
  token_type: 'Bearer'
  /** Seconds, a JSON number. */
  expires_in: number
  scope: string
  refresh_token?: string
  id_token?: string
}

export async function mintClientTokens(
  app: Pick<AppContext, 'config' | 'keys'>,
  pending: PendingClientTokens,
  scope: string,
  signIn: SignIn | undefined,
): Promise<TokenResponseBody> {
  const accessToken = await app.keys.sign(pending.kid, pending.claims)
  const body: TokenResponseBody = { access_token: accessToken, token_type: 'Bearer', expires_in: pending.expiresIn, scope }
  if (pending.refreshToken !== undefined) body.refresh_token = pending.refreshToken
  if (signIn !== undefined) {
    const times = { iat: Number(pending.claims.iat), exp: Number(pending.claims.exp) }
    body.id_token = await app.keys.sign(pending.kid, idTokenClaims(app.config, signIn, accessToken, times))
  }
  return body
}
