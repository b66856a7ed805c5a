// The public one-time link of an offer: a 32-byte random token (base64url) shown once, of which only the
// SHA-256 is kept; the link is PUBLIC_URL/s/{token}.
import { createHash, randomBytes } from 'node:crypto'

export const PUBLIC_SURVEY_PATH = '/s'

export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export function surveyUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${PUBLIC_SURVEY_PATH}/${token}`
}
