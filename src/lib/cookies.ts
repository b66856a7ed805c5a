// Reading one cookie of a request's Cookie header: the OAuth pages' sign-in and CSRF cookies, the API's
// refresh cookie.

/** The value of cookie `name` in a Cookie header; only values of our own alphabet (base64url, 16-128) count. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at < 0 || part.slice(0, at).trim() !== name) continue
    const value = part.slice(at + 1).trim()
    if (/^[A-Za-z0-9_-]{16,128}$/.test(value)) return value
  }
  return undefined
}
