// The authorization code: 32 random bytes (base64url, 256 bits), stored as its SHA-256 only, usable once
// within 60 seconds, bound to the client, the redirect URI as sent, the granted scope, the PKCE
// challenge, the nonce and the sign-in (session, time, methods) it came from.
import type { Tx } from '../../../db/database.ts'
import { insertCode } from '../store.ts'
import type { AuthorizationRequest } from './check-request.ts'
import type { SignedIn } from './signed-in.ts'

export const AUTHORIZATION_CODE_TTL_MS = 60_000

export function hashCode(code: string): string {
  return new Bun.CryptoHasher('sha256').update(code).digest('hex')
}

/** Inside the caller's transaction: stores the code's hash; returns the code (handed out once, in the redirect). */
export async function issueCode(tx: Tx, request: AuthorizationRequest, signedIn: SignedIn, now: number): Promise<string> {
  const code = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  await insertCode(tx, {
    code_hash: hashCode(code),
    organization_id: request.client.organization_id,
    client_id: request.client.id,
    user_id: signedIn.user.id,
    redirect_uri: request.reply.redirectUri,
    scope: request.scopes.join(' '),
    code_challenge: request.codeChallenge,
    nonce: request.nonce,
    browser_session_id: signedIn.sessionId,
    auth_time: signedIn.signedInAt,
    auth_methods: JSON.stringify(signedIn.authMethods),
    created_at: now,
    expires_at: now + AUTHORIZATION_CODE_TTL_MS,
    consumed_at: null,
    session_id: null,
  })
  return code
}
