// Webhook signing secrets at rest: sealed with the master key and bound to their webhook's id, so a
// copied database row cannot be moved to another webhook and still open.
import { memoize } from '../../lib/memo.ts'
import { seal, unseal } from '../keys/index.ts'

export function sealWebhookSecret(masterKey: Uint8Array, webhookId: string, secret: string): string {
  return seal(masterKey, new TextEncoder().encode(secret), `webhook:${webhookId}`)
}

export function openWebhookSecret(masterKey: Uint8Array, webhookId: string, sealed: string): string {
  return new TextDecoder().decode(unseal(masterKey, sealed, `webhook:${webhookId}`))
}

/**
 * Opened secrets, kept: unsealing is AES-GCM, and a webhook signs many deliveries with one secret.
 * Keyed by webhook and sealed text together, never by sealed text alone, so a seal copied to another
 * webhook still has to open under that webhook's binding. A new secret is a new seal: a new key.
 */
export class OpenedSecrets {
  private readonly openByKey: (key: string) => string

  constructor(masterKey: Uint8Array, maxEntries = 1_000) {
    this.openByKey = memoize((key: string) => {
      // Webhook ids have no spaces: the first one ends the id.
      const at = key.indexOf(' ')
      return openWebhookSecret(masterKey, key.slice(0, at), key.slice(at + 1))
    }, maxEntries)
  }

  open(webhookId: string, sealed: string): string {
    return this.openByKey(`${webhookId} ${sealed}`)
  }
}
