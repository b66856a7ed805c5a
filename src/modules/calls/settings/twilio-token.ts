// The organization's Twilio auth token at rest: sealed with the master key (AES-256-GCM, as webhook
// secrets are) and bound to the organization, so a row copied to another organization does not open.
// It is never returned by the API nor written to a log or an audit record.
import { seal, unseal } from '../../keys/index.ts'

const contextOf = (organizationId: string) => `twilio:${organizationId}`

export function sealTwilioToken(masterKey: Uint8Array, organizationId: string, token: string): string {
  return seal(masterKey, new TextEncoder().encode(token), contextOf(organizationId))
}

export function openTwilioToken(masterKey: Uint8Array, organizationId: string, sealed: string): string {
  return new TextDecoder().decode(unseal(masterKey, sealed, contextOf(organizationId)))
}
