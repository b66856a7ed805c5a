// Webhook signing secrets at rest: sealed with the master key and bound to their webhook's id, so a
// copied database row cannot be moved to another webhook and still open.
import { seal, unseal } from '../keys/master-key.ts'

export function sealWebhookSecret(masterKey: Uint8Array, webhookId: string, secret: string): string {
  return seal(masterKey, new TextEncoder().encode(secret), `webhook:${webhookId}`)
}

export function openWebhookSecret(masterKey: Uint8Array, webhookId: string, sealed: string): string {
  return new TextDecoder().decode(unseal(masterKey, sealed, `webhook:${webhookId}`))
}
