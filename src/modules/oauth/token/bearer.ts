// The protected-resource side of userinfo (RFC 6750): the access token from the Authorization header or,
// for POST, the form body's access_token (never the URL, never both), and its failures answered with
// WWW-Authenticate: 401 invalid_token, 403 insufficient_scope, 400 invalid_request.
import { AppError } from '../../../errors.ts'
import { asciiDescription, noStoreJson } from './protocol.ts'

const REALM = 'Bearer realm="switchboard"'

/** A userinfo refusal, answered as RFC 6750 §3 says. */
export class BearerError extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    readonly error: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'access_denied' | undefined,
    readonly description: string,
  ) {
    super(description)
    this.name = 'BearerError'
  }
}

export function bearerErrorResponse(refusal: BearerError): Response {
  const description = asciiDescription(refusal.description)
  const challenge =
    refusal.error === 'invalid_token' || refusal.error === 'insufficient_scope'
      ? `${REALM}, error="${refusal.error}", error_description="${description}"${refusal.error === 'insufficient_scope' ? ', scope="openid"' : ''}`
      : REALM
  const body = { error: refusal.error ?? 'invalid_request', error_description: description }
  return noStoreJson(
    refusal.status,
    body,
    refusal.status === 403 && refusal.error === 'access_denied' ? {} : { 'www-authenticate': challenge },
  )
}

/** Our authentication failures as RFC 6750 ones (401 invalid_token; the IP allowlist's 403); other errors pass. */
export function asBearerError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error
  if (error.status === 401) return new BearerError(401, 'invalid_token', error.message)
  if (error.code === 'IP_NOT_ALLOWED') return new BearerError(403, 'access_denied', error.message)
  return error
}

/** The presented token; `formToken`: the POST body's access_token. */
export function presentedBearer(input: { url: string; authorization: string | null; formToken: string | undefined }): string {
  if (new URL(input.url).searchParams.has('access_token'))
    throw new BearerError(400, 'invalid_request', 'Tokens must be sent in the Authorization header or the form body, never in the URL')
  const { authorization, formToken } = input
  if (authorization !== null && formToken !== undefined)
    throw new BearerError(400, 'invalid_request', 'Send the access token once: in the Authorization header or in the body')
  if (formToken !== undefined) return formToken
  if (authorization === null || authorization.trim() === '')
    throw new BearerError(401, undefined, 'Send an access token: Authorization: Bearer <token>')
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim())
  if (!match) throw new BearerError(400, 'invalid_request', 'The Authorization header must be "Bearer <token>"')
  return match[1]!
}
