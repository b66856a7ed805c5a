// The response headers of every page: a strict Content-Security-Policy (no script at all, the one
// stylesheet by hash, forms only to us and to the client the request came from), no framing, no
// referrer, never cached, no sniffing.
import { STYLE_SOURCE } from './html.ts'

/**
 * The form-action source of a redirect target. Chromium applies form-action to the redirects that
 * follow a form's submission too, so a page whose form ends in a redirect to the client lists it.
 */
export function formTarget(redirectUri: string): string | undefined {
  try {
    const url = new URL(redirectUri)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin
    // A native app's private-use scheme (com.example.app:/cb): a scheme source.
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : undefined
  } catch {
    return undefined
  }
}

export function pageHeaders(redirectUri?: string): Record<string, string> {
  const target = redirectUri === undefined ? undefined : formTarget(redirectUri)
  const csp = [
    "default-src 'none'",
    `style-src ${STYLE_SOURCE}`,
    `form-action 'self'${target ? ` ${target}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ')
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'x-content-type-options': 'nosniff',
  }
}
