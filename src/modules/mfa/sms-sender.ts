// Where MFA text messages go, chosen by SMS_PROVIDER: the server log (development), a signed webhook
// (POST {to, text} with X-Service-Signature: sha256=<HMAC of the body>, to bridge any gateway), or
// Twilio's Messages API. Sending happens outside any transaction; a failure is the caller's 503.
import type { SmsConfig } from '../../config.ts'
import { hmacSha256Hex } from '../../lib/hmac.ts'
import type { Logger } from '../../lib/log.ts'

export interface SmsSender {
  readonly provider: SmsConfig['provider']
  send(to: string, text: string): Promise<void>
}

const TIMEOUT_MS = 10_000

/** The gateway did not take the message; the message says why without any secret. */
export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError'
}

/** The webhook signature: hex HMAC-SHA256 of the exact body bytes, as for event webhooks. */
export function smsSignature(secret: string, body: string): string {
  return `sha256=${hmacSha256Hex(secret, body)}`
}

async function post(url: string, init: RequestInit): Promise<void> {
  let response: Response
  try {
    response = await fetch(url, { ...init, method: 'POST', redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (error) {
    throw new SmsDeliveryError(`the SMS gateway could not be reached: ${(error as Error).name}`)
  }
  // Read (and drop) the body so the connection is released.
  await response.arrayBuffer().catch(() => undefined)
  if (response.status < 200 || response.status > 299) throw new SmsDeliveryError(`the SMS gateway answered HTTP ${response.status}`)
}

export function createSmsSender(config: SmsConfig, log: Logger): SmsSender {
  switch (config.provider) {
    case 'log':
      return {
        provider: 'log',
        async send(to, text) {
          // Development only (the README says so, and `serve` warns at start): the code is in the log.
          log.info('sms (SMS_PROVIDER=log)', { to, text })
        },
      }
    case 'webhook':
      return {
        provider: 'webhook',
        async send(to, text) {
          const body = JSON.stringify({ to, text })
          await post(config.url, {
            headers: { 'content-type': 'application/json', 'x-service-signature': smsSignature(config.secret, body) },
            body,
          })
        },
      }
    case 'twilio':
      return {
        provider: 'twilio',
        async send(to, text) {
          const form = new URLSearchParams({ To: to, Body: text })
          // A messaging service SID (MG…) sends from the service's pool; anything else is a sender number.
          form.set(config.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', config.from)
          const url = `${config.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`
          const basic = Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')
          await post(url, {
            headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: form.toString(),
          })
        },
      }
  }
}
