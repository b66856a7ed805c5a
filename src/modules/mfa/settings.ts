// The MFA module's settings (assembled by src/config.ts): where its text messages go (the log, a signed webhook, Twilio).
import { Type, type TSchema } from '@sinclair/typebox'
import { ConfigError, parseEndpointUrl, parseUrl, type SettingValues } from '../../lib/settings.ts'

export const SMS_PROVIDERS = ['log', 'webhook', 'twilio'] as const

export const SETTINGS = {
  SMS_PROVIDER: Type.Union(
    SMS_PROVIDERS.map((p) => Type.Literal(p)),
    {
      default: 'log',
      description:
        'How MFA text messages are sent: `log` writes them, codes included, to the server log (development only; `serve` warns at start), `webhook` posts them to `SMS_WEBHOOK_URL`, `twilio` sends them with Twilio.',
    },
  ),
  SMS_WEBHOOK_URL: Type.String({
    'x-default': '(none)',
    description:
      'With `webhook`: the URL that receives `POST {"to": "+E.164", "text": "…"}` with `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>`; any 2xx counts as sent. Required with `webhook`.',
  }),
  SMS_WEBHOOK_SECRET: Type.String({
    minLength: 16,
    maxLength: 256,
    'x-default': '(none)',
    'x-secret': true,
    description: 'The HMAC key of that signature, 16–256 characters. Required with `webhook`.',
  }),
  TWILIO_ACCOUNT_SID: Type.String({
    'x-default': '(none)',
    description: 'With `twilio`: the account SID (`AC…`). Required with `twilio`.',
  }),
  TWILIO_AUTH_TOKEN: Type.String({
    'x-default': '(none)',
    'x-secret': true,
    description: "The account's auth token (never logged). Required with `twilio`.",
  }),
  TWILIO_FROM: Type.String({
    'x-default': '(none)',
    description: 'The sender: a Twilio number in E.164 form, or a messaging service SID (`MG…`). Required with `twilio`.',
  }),
  TWILIO_API_URL: Type.String({
    default: 'https://api.twilio.com',
    description: "Base URL of Twilio's REST API; change it only to go through a proxy.",
  }),
} satisfies Record<string, TSchema>

/** Where MFA text messages go. */
export type SmsConfig =
  | { readonly provider: 'log' }
  | { readonly provider: 'webhook'; readonly url: string; readonly secret: string }
  | { readonly provider: 'twilio'; readonly accountSid: string; readonly authToken: string; readonly from: string; readonly apiUrl: string }

export interface MfaSlice {
  readonly sms: SmsConfig
}

export function mfaSlice(values: SettingValues): MfaSlice {
  return { sms: Object.freeze(parseSms(values)) }
}

function parseSms(values: SettingValues): SmsConfig {
  const provider = values.SMS_PROVIDER as (typeof SMS_PROVIDERS)[number]
  const need = (names: string[]) => {
    const missing = names.filter((name) => values[name] === undefined)
    if (missing.length > 0) throw new ConfigError(`${missing.join(' and ')} must be set when SMS_PROVIDER is ${provider}`)
  }
  if (provider === 'webhook') {
    need(['SMS_WEBHOOK_URL', 'SMS_WEBHOOK_SECRET'])
    return {
      provider,
      url: parseEndpointUrl('SMS_WEBHOOK_URL', values.SMS_WEBHOOK_URL as string),
      secret: values.SMS_WEBHOOK_SECRET as string,
    }
  }
  if (provider === 'twilio') {
    need(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'])
    return {
      provider,
      accountSid: values.TWILIO_ACCOUNT_SID as string,
      authToken: values.TWILIO_AUTH_TOKEN as string,
      from: values.TWILIO_FROM as string,
      apiUrl: parseUrl('TWILIO_API_URL', values.TWILIO_API_URL as string),
    }
  }
  return { provider: 'log' }
}
