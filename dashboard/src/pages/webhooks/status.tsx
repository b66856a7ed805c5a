// A webhook's state in words, as the API models it: on, off (by hand, after every attempt of an event
// failed, or because the receiver answered 410 Gone), or on but failing since its last success.
import type { Schemas } from '../../../../clients/typescript/src/index.ts'

export type Webhook = Schemas['Webhook']
export type Delivery = Schemas['DeliveryRecord']

const DISABLED_BECAUSE: Record<NonNullable<Webhook['disabled_reason']>, string> = {
  manual: 'turned off',
  exhausted: 'every attempt of an event failed',
  gone: 'the receiver answered 410 Gone',
}

export function statusOf(webhook: Webhook): { label: string; tone: 'ok' | 'warn' | 'error'; detail?: string } {
  const failures = Number(webhook.consecutive_failures)
  if (!webhook.enabled)
    return { label: 'Disabled', tone: 'error', detail: webhook.disabled_reason ? DISABLED_BECAUSE[webhook.disabled_reason] : undefined }
  if (failures > 0)
    return { label: 'Failing', tone: 'warn', detail: `${failures} failed attempt${failures === 1 ? '' : 's'} since the last success` }
  return { label: 'Enabled', tone: 'ok' }
}

export function WebhookStatus({ webhook }: { webhook: Webhook }) {
  const status = statusOf(webhook)
  return (
    <span>
      <strong class={status.tone}>{status.label}</strong>
      {status.detail && <span class="muted">: {status.detail}</span>}
    </span>
  )
}
