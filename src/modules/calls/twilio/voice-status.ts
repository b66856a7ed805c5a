// Twilio's voice status callbacks (StatusCallback of a call) driving our calls. The organization is the
// one whose Twilio account sent it (AccountSid); the request must carry that account's signature. The
// call (provider twilio, provider_call_id = CallSid) is created by its first callback and moved through
// the lifecycle by the later ones, with the API's events. Twilio retries and may deliver out of order: a
// callback for a status the call has reached or passed changes nothing, and is still answered with
// success so that Twilio stops.
import type { AppContext, Ctx, SystemActor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { createCallInTx } from '../calls/create-call.ts'
import { phoneOrUndefined } from '../calls/fields.ts'
import { type CallStatus, callPath } from '../calls/lifecycle.ts'
import { moveCallInTx } from '../calls/move-call.ts'
import { type CallRow, lockCallByProviderId } from '../calls/store.ts'
import { findSettingsByTwilioAccount } from '../settings/store.ts'
import { openTwilioToken, sealTwilioToken } from '../settings/twilio-token.ts'
import { isTwilioSignature } from './signature.ts'

/** Twilio's CallStatus values (`initiated` is an outbound call being placed) as ours. */
export const TWILIO_CALL_STATUSES: Record<string, CallStatus> = {
  queued: 'queued',
  initiated: 'queued',
  ringing: 'ringing',
  'in-progress': 'in_progress',
  completed: 'completed',
  busy: 'busy',
  failed: 'failed',
  'no-answer': 'no_answer',
  canceled: 'canceled',
}

/** How far along each status is: a callback for a rank the call has reached changes nothing. */
const RANK: Record<CallStatus, number> = {
  queued: 0,
  ringing: 1,
  in_progress: 2,
  completed: 3,
  no_answer: 3,
  busy: 3,
  failed: 3,
  canceled: 3,
  rejected: 3,
}

// The system acting for Twilio, in the audit records of what its callbacks change.
// SystemActor names its ids in context.ts; 'twilio' is asked for there (see the report).
const TWILIO_ACTOR: SystemActor = { kind: 'system', id: 'twilio' }

export interface VoiceStatusRequest {
  /** The URL Twilio requested: PUBLIC_URL + path + query, as signed. */
  url: string
  signature: string | null
  params: URLSearchParams
}

export interface VoiceStatusOutcome {
  callId: string | null
  /** False when the callback changed nothing (a repeat, out of order, or a status we do not map). */
  applied: boolean
}

// A sealed token of no organization, opened when the account is unknown: both answers cost the same.
const decoys = new WeakMap<Uint8Array, string>()
const DECOY_ORGANIZATION = 'org_none'

function decoyOf(masterKey: Uint8Array): string {
  let sealed = decoys.get(masterKey)
  if (sealed === undefined) decoys.set(masterKey, (sealed = sealTwilioToken(masterKey, DECOY_ORGANIZATION, crypto.randomUUID())))
  return sealed
}

export async function receiveVoiceStatus(app: AppContext, request: VoiceStatusRequest): Promise<VoiceStatusOutcome> {
  const accountSid = request.params.get('AccountSid') ?? ''
  const settings = accountSid === '' ? undefined : await findSettingsByTwilioAccount(app.db, accountSid)
  const sealed = settings?.twilio_auth_token_encrypted
  // Unknown account or a forged signature: the same work, the same answer.
  const token = sealed
    ? openTwilioToken(app.masterKey, settings!.organization_id, sealed)
    : openTwilioToken(app.masterKey, DECOY_ORGANIZATION, decoyOf(app.masterKey))
  const genuine = isTwilioSignature(request.signature, token, request.url, request.params)
  if (!settings || !sealed || !genuine)
    throw new AppError('INSUFFICIENT_PERMISSIONS', 'The X-Twilio-Signature does not match this request for a connected Twilio account')
  const callSid = request.params.get('CallSid')?.trim() ?? ''
  if (callSid === '') throw validationError([{ field: 'CallSid', message: 'is required' }])
  const target = TWILIO_CALL_STATUSES[request.params.get('CallStatus') ?? '']
  if (target === undefined) {
    app.log.warn('twilio callback with an unknown CallStatus', { call_sid: callSid, call_status: request.params.get('CallStatus') })
    return { callId: null, applied: false }
  }
  const ctx = { ...app, actor: TWILIO_ACTOR } satisfies Ctx<SystemActor>
  return applyStatus(ctx, settings.organization_id, callSid, target, request.params)
}

/** The longest call Twilio places (a call's TimeLimit is at most 24 hours). */
export const MAX_CALL_SECONDS = 86_400

/** Twilio's CallDuration: whole seconds, 0 to MAX_CALL_SECONDS; absent or empty is none; anything else 400. */
function talkSecondsOf(params: URLSearchParams): number | undefined {
  const text = params.get('CallDuration')
  if (text === null || text === '') return undefined
  if (!/^\d{1,6}$/.test(text) || Number(text) > MAX_CALL_SECONDS)
    throw validationError([{ field: 'CallDuration', message: `must be whole seconds from 0 to ${MAX_CALL_SECONDS}` }])
  return Number(text)
}

async function applyStatus(
  ctx: Ctx<SystemActor>,
  organizationId: string,
  callSid: string,
  target: CallStatus,
  params: URLSearchParams,
): Promise<VoiceStatusOutcome> {
  const now = ctx.clock.now()
  // A call never seen answered that Twilio reports ended after CallDuration seconds of talk was answered then.
  const duration = talkSecondsOf(params)
  const answeredAt = target === 'completed' && duration !== undefined ? now - duration * 1000 : now
  return ctx.db.write('call.twilio_status', async (tx) => {
    // Locked: callbacks of one call (retries, out of order, on two instances) take turns, so each status
    // is reached once with its event. First callbacks at once all insert: the unique provider id fails
    // the losers' inserts, and their re-runs find the winner's call here.
    let call: CallRow | undefined = await lockCallByProviderId(tx, organizationId, 'twilio', callSid)
    let applied = false
    if (!call) {
      call = await createCallInTx(tx, ctx, {
        organizationId,
        ...partiesOf(params),
        contactId: undefined,
        agentId: null,
        queue: null,
        status: 'queued',
        provider: 'twilio',
        providerCallId: callSid,
        ticketId: null,
        createdBy: 'system:twilio',
        now,
        initializedAt: Math.min(now, answeredAt),
        providerIdFree: true,
      })
      applied = true
    }
    // Repeated, or overtaken by a later status (out of order): nothing changes.
    if (RANK[target] <= RANK[call.status]) return { callId: call.id, applied }
    const path = callPath(call.status, target)
    if (path === undefined) return { callId: call.id, applied }
    for (const step of path) {
      // Never before the call began or rang (Twilio's duration and our clock need not agree).
      const at = step === 'in_progress' ? Math.max(answeredAt, Number(call.ringing_at ?? call.initialized_at)) : now
      call = await moveCallInTx(tx, ctx, call, { to: step, at, now })
    }
    return { callId: call.id, applied: true }
  })
}

/** Direction, From and To of the first callback: numbers in E.164 when they are numbers, else as sent (`client:alice`). */
function partiesOf(params: URLSearchParams) {
  const party = (name: string) => {
    const text = (params.get(name) ?? '').trim().slice(0, 200)
    return phoneOrUndefined(text) ?? text
  }
  return {
    direction: (params.get('Direction') ?? 'inbound').startsWith('outbound') ? ('outbound' as const) : ('inbound' as const),
    from: party('From'),
    to: party('To'),
  }
}
