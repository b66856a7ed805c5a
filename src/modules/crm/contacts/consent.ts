// A contact's consent per channel (e-mail, SMS, marketing): the API gives or withdraws each with a
// boolean; the contact keeps whether it is granted and when it was last given or withdrawn.
import { isoTime } from '../../../lib/clock.ts'

export const CONSENT_CHANNELS = ['email', 'sms', 'marketing'] as const
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number]

/** As stored (JSON): null for a channel nobody has asked about yet. */
type StoredConsent = Record<ConsentChannel, { granted: boolean; at: number } | null>

export type ConsentChanges = Partial<Record<ConsentChannel, boolean>>

/** When each change was made, if not now: an import carries the times consent was given elsewhere. */
export type ConsentTimes = Partial<Record<ConsentChannel, number>>

export const NO_CONSENT = JSON.stringify({ email: null, sms: null, marketing: null } satisfies StoredConsent)

/**
 * The consent after `changes`, as stored. A channel's time moves only when its answer changes: giving
 * again what was given keeps the time it was first given.
 */
export function applyConsent(stored: string, changes: ConsentChanges, now: number, times: ConsentTimes = {}): string {
  const consent = JSON.parse(stored) as StoredConsent
  for (const channel of CONSENT_CHANNELS) {
    const granted = changes[channel]
    if (granted !== undefined && consent[channel]?.granted !== granted) consent[channel] = { granted, at: times[channel] ?? now }
  }
  return JSON.stringify(consent)
}

/** Every channel, `{granted: false, at: null}` for one never asked about. */
export function consentJson(stored: string): Record<ConsentChannel, { granted: boolean; at: string | null }> {
  const consent = JSON.parse(stored) as StoredConsent
  const channel = (c: ConsentChannel) => {
    const entry = consent[c]
    return entry ? { granted: entry.granted, at: isoTime(entry.at) } : { granted: false, at: null }
  }
  return { email: channel('email'), sms: channel('sms'), marketing: channel('marketing') }
}
