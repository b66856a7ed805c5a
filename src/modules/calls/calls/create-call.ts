// createCall: a new call (queued, or ringing when it already rings), its contact found by the other
// party's number when not given, with call.started; an agent creates calls only for itself or nobody.
// createCallInTx is the part the Twilio receiver shares.
import type { Ctx, UserActor } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { prefixedId } from '../../../lib/ids.ts'
import type { CallDirection, CallProvider } from '../table.ts'
import { refreshAgentsOf, recordCallEvent } from './events.ts'
import { assertAgentUser, assertMayTake, assertTicket, contactOf, phoneNumber, queueName } from './fields.ts'
import { findCallByProviderId, insertCall, type CallRow } from './store.ts'

export interface NewCall {
  direction: CallDirection
  from: string
  to: string
  contact_id?: string | null
  agent_id?: string | null
  queue?: string | null
  status?: 'queued' | 'ringing'
  provider?: CallProvider
  provider_call_id?: string | null
  ticket_id?: string | null
}

export async function createCall(ctx: Ctx<UserActor>, input: NewCall): Promise<CallRow> {
  const { actor } = ctx
  const agentId = input.agent_id ?? null
  assertMayTake(actor, agentId)
  // Parsed before the transaction: a bad number is refused without taking the writer.
  const from = phoneNumber('from', input.from)
  const to = phoneNumber('to', input.to)
  const now = ctx.clock.now()
  return ctx.db.write('call.create', async (tx) => {
    if (agentId !== null) await assertAgentUser(tx, actor.organizationId, agentId)
    if (input.ticket_id) await assertTicket(tx, actor.organizationId, input.ticket_id)
    return createCallInTx(tx, ctx, {
      organizationId: actor.organizationId,
      direction: input.direction,
      from,
      to,
      contactId: input.contact_id,
      agentId,
      queue: queueName(input.queue),
      status: input.status ?? 'queued',
      provider: input.provider ?? 'manual',
      providerCallId: input.provider_call_id ?? null,
      ticketId: input.ticket_id ?? null,
      createdBy: actor.userId,
      now,
    })
  })
}

export interface CallToInsert {
  organizationId: string
  direction: CallDirection
  /** Normalized already (E.164, or a provider's caller as sent). */
  from: string
  to: string
  /** undefined: found by the other party's number. */
  contactId: string | null | undefined
  agentId: string | null
  queue: string | null
  status: 'queued' | 'ringing'
  provider: CallProvider
  providerCallId: string | null
  ticketId: string | null
  createdBy: string
  now: number
  /** When the call began, if before now (a provider reporting it late); default now. */
  initializedAt?: number
  /** The caller found no call with the provider's id in this transaction: insert without a second look. */
  providerIdFree?: boolean
}

/** Inserts the call with call.started; 409 naming provider_call_id when the provider's id is taken. */
export async function createCallInTx(tx: Tx, ctx: Ctx, input: CallToInsert): Promise<CallRow> {
  const { organizationId, now } = input
  if (input.providerCallId !== null && !input.providerIdFree) {
    // One call per provider id: two creations at once break calls_org_provider_call, and the loser's
    // re-run finds the winner's call here (409).
    const other = await findCallByProviderId(tx, organizationId, input.provider, input.providerCallId)
    if (other)
      throw new AppError('CONFLICT', `Call ${other.id} has this provider_call_id`, {
        errors: [{ field: 'provider_call_id', message: `is already the ${input.provider} id of call ${other.id}` }],
      })
  }
  const parties = { direction: input.direction, from_number: input.from, to_number: input.to }
  const row: CallRow = {
    id: prefixedId('cal'),
    organization_id: organizationId,
    ...parties,
    contact_id: await contactOf(tx, organizationId, input.contactId, parties),
    agent_id: input.agentId,
    queue: input.queue,
    status: input.status,
    provider: input.provider,
    provider_call_id: input.providerCallId,
    initialized_at: input.initializedAt ?? now,
    ringing_at: input.status === 'ringing' ? now : null,
    answered_at: null,
    ended_at: null,
    wait_seconds: null,
    talk_seconds: null,
    end_reason: null,
    ticket_id: input.ticketId,
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
  }
  await insertCall(tx, row)
  await refreshAgentsOf(tx, ctx, undefined, row, now)
  await recordCallEvent(tx, ctx, 'call.started', row, now)
  return row
}
