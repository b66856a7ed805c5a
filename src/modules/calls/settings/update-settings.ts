// The organization's call settings: how long recordings are kept (new recordings take the value in
// force when they are made) and the Twilio account whose status callbacks drive its calls. The auth
// token is write-only; the answer says whether one is set.
import type { AppContext, Ctx, UserActor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { isoTime } from '../../../lib/clock.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { type CallSettingsRow, callSettingsOf, findSettingsByTwilioAccount, lockCallSettings, saveCallSettings } from './store.ts'
import { sealTwilioToken } from './twilio-token.ts'

export const VOICE_STATUS_PATH = '/api/v1/integrations/twilio/voice-status'

export interface CallSettingsChanges {
  recording_retention_days?: number
  twilio_account_sid?: string | null
  twilio_auth_token?: string
}

export function callSettingsJson(app: Pick<AppContext, 'config'>, row: CallSettingsRow) {
  return {
    recording_retention_days: Number(row.recording_retention_days),
    twilio_account_sid: row.twilio_account_sid,
    twilio_auth_token_set: row.twilio_auth_token_encrypted !== null,
    twilio_status_callback_url: `${app.config.publicUrl}${VOICE_STATUS_PATH}`,
    updated_at: Number(row.updated_at) === 0 ? null : isoTime(Number(row.updated_at)),
  }
}

export async function getCallSettings(ctx: Ctx<UserActor>): Promise<CallSettingsRow> {
  return callSettingsOf(ctx.db, ctx.actor.organizationId)
}

export async function updateCallSettings(ctx: Ctx<UserActor>, changes: CallSettingsChanges): Promise<CallSettingsRow> {
  const { actor } = ctx
  const { organizationId } = actor
  const now = ctx.clock.now()
  // Sealed before the transaction (no crypto under the writer beyond what it must).
  const sealed =
    changes.twilio_auth_token === undefined ? undefined : sealTwilioToken(ctx.masterKey, organizationId, changes.twilio_auth_token)
  return ctx.db.write('call_settings.update', async (tx) => {
    // Locked: two changes of different fields both land (the row is written whole), and the account-token rule holds.
    const before = await lockCallSettings(tx, organizationId)
    const after: CallSettingsRow = { ...before, updated_at: now }
    if (changes.recording_retention_days !== undefined) after.recording_retention_days = changes.recording_retention_days
    if (changes.twilio_account_sid !== undefined) after.twilio_account_sid = changes.twilio_account_sid
    if (sealed !== undefined) after.twilio_auth_token_encrypted = sealed
    // No account, no token: removing the account forgets its token.
    if (after.twilio_account_sid === null) {
      if (changes.twilio_auth_token) throw validationError([{ field: 'twilio_auth_token', message: 'needs a twilio_account_sid' }])
      after.twilio_auth_token_encrypted = null
    } else if (after.twilio_auth_token_encrypted === null)
      throw validationError([{ field: 'twilio_auth_token', message: 'is required with twilio_account_sid: it verifies the callbacks' }])
    if (after.twilio_account_sid !== null && after.twilio_account_sid !== before.twilio_account_sid) {
      // One organization per account: two connections at once break call_settings_twilio_account, and
      // the loser's re-run finds the winner here (409).
      const other = await findSettingsByTwilioAccount(tx, after.twilio_account_sid)
      if (other && other.organization_id !== organizationId)
        throw new AppError('CONFLICT', 'This Twilio account is connected to another organization', {
          errors: [{ field: 'twilio_account_sid', message: 'is connected to another organization' }],
        })
    }
    await saveCallSettings(tx, after)
    // The fields changed, never the token's value.
    const changed = Object.keys(changes).filter((key) => (changes as Record<string, unknown>)[key] !== undefined)
    await appendAudit(tx, {
      organizationId,
      actor: auditActorOf(actor),
      event: 'organization.call_settings_updated',
      target: { type: 'organization', id: organizationId },
      details: { changed },
      request: actor.request,
      now,
    })
    return after
  })
}
