// An account's own vocabularies and rules: company sizes (head-count bands, as Zendesk and Freshdesk
// offer them) and the one spelling of a web domain, by which accounts are unique in an organization.
import { validationError } from '../../../errors.ts'

export const ACCOUNT_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1001-5000', '5000+'] as const
export type AccountSize = (typeof ACCOUNT_SIZES)[number]

export const DOMAIN_EXPECTED = 'must be a domain name such as example.com (a URL is reduced to its host)'

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
// A top-level label is letters (or an IDN's xn--): rules out IP addresses and made-up hosts like "intranet".
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

/**
 * A domain as people paste it ("https://www.Acme.com/about", "ACME.COM.") reduced to what is stored and
 * compared: lowercase, without scheme, credentials, `www.`, port, path or trailing dot; international
 * names in their ASCII (punycode) form. Undefined when no valid host name is left.
 */
export function normalizeDomain(text: string): string | undefined {
  const typed = text.trim().toLowerCase()
  if (typed === '' || /[\s@]/.test(typed)) return undefined
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(typed) ? typed : `http://${typed}`)
  } catch {
    return undefined
  }
  let host = url.hostname.replace(/\.$/, '')
  if (host.startsWith('www.')) host = host.slice(4)
  const labels = host.split('.')
  if (host.length > 253 || labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined
  return TOP_LABEL.test(labels.at(-1)!) ? host : undefined
}

/** The stored domain of `text`, or 400 naming the field; null clears it. */
export function domainOf(text: string | null): string | null {
  if (text === null || text.trim() === '') return null
  const domain = normalizeDomain(text)
  if (domain === undefined) throw validationError([{ field: 'domain', message: DOMAIN_EXPECTED }])
  return domain
}
