// A webhook URL as registered: https, no credentials, not a literal address outside the public
// internet (unless the organization's allowed ranges let it in). Host names are checked again at every send,
// after resolution: a name that is fine today may point inward tomorrow.
import type { Cidr } from '../../lib/cidr.ts'
import { isAddressAllowed, literalHostAddress } from '../../lib/address-policy.ts'

export const MAX_URL_LENGTH = 2048

/** Why the URL cannot be registered, or undefined when it can. */
export function webhookUrlProblem(text: string, allowedCidrs: readonly Cidr[]): string | undefined {
  if (text.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.protocol !== 'https:') return 'must use https'
  if (url.username !== '' || url.password !== '') return 'must not carry credentials'
  if (url.hash !== '') return 'must not have a fragment'
  const literal = literalHostAddress(url.hostname)
  if (literal !== undefined) {
    const verdict = isAddressAllowed(literal, allowedCidrs)
    if (!verdict.ok) return `must not point at a ${verdict.reason} address`
  }
  // Names (localhost included) are judged by what they resolve to, at every send.
  return undefined
}
