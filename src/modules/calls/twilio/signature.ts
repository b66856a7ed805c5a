// Twilio's request signature (X-Twilio-Signature), computed as Twilio documents it, without its SDK:
// base64 HMAC-SHA1, keyed with the account's auth token, over the full URL Twilio requested followed by
// each POST parameter's name and value, parameters sorted by name (a name sent more than once: its
// distinct values sorted, each preceded by the name, as the SDK's getExpectedTwilioSignature does).
import { constantTimeEqual, hmacSha1 } from '../../../lib/hmac.ts'

export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const names = [...new Set(params.keys())].sort()
  let data = url
  for (const name of names) {
    const values = params.getAll(name)
    if (values.length === 1) data += name + values[0]
    else for (const value of [...new Set(values)].sort()) data += name + value
  }
  return hmacSha1(authToken, data, 'base64')
}

/** Constant-time: how much of a forged signature matches tells nothing. */
export function isTwilioSignature(given: string | null, authToken: string, url: string, params: URLSearchParams): boolean {
  const expected = twilioSignature(authToken, url, params)
  return given !== null && constantTimeEqual(given, expected)
}
