// The first step of a request that carries an Idempotency-Key, before its handler runs: claim the key in
// a small transaction of its own, or answer from what the key already holds (the saved answer, or a 409).
import type { AppContext } from '../../context.ts'
import type { BeginInput, Begun } from '../../ports.ts'
import { AppError } from '../../errors.ts'
import { ABANDONED_AFTER_MS, KEY_TTL_MS } from './rules.ts'
import { type ClaimRef, findKey, insertClaim, type NewClaim, takeOverClaim } from './store.ts'

export type { BeginInput, Begun } from '../../ports.ts'

export async function beginIdempotentRequest(app: Pick<AppContext, 'db' | 'clock' | 'log'>, input: BeginInput): Promise<Begun> {
  const now = app.clock.now()
  const claim: NewClaim = { ...input, now, expiresAt: now + KEY_TTL_MS }
  const claimed: ClaimRef = { scope: input.scope, key: input.key, createdAt: now }
  const outcome = await app.db.write('idempotency.claim', async (tx) => {
    if (await insertClaim(tx, claim)) return { kind: 'claimed' as const }
    const found = await findKey(tx, input.scope, input.key)
    // Deleted between the two statements (a failed first request freed it): the client's retry will find it free.
    if (!found) return { kind: 'in_use' as const }
    // Past its 24 hours: the key works anew, whatever it was used for (the cron task has not deleted it yet).
    if (found.expiresAt <= now) return (await takeOverClaim(tx, claim, found)) ? { kind: 'claimed' as const } : { kind: 'in_use' as const }
    if (found.requestHash !== input.requestHash) return { kind: 'reused' as const }
    if (found.answer) return { kind: 'replay' as const, answer: found.answer }
    if (found.createdAt > now - ABANDONED_AFTER_MS) return { kind: 'in_use' as const }
    // Claimed long ago and never answered: its process died on the way. This request takes it over.
    if (!(await takeOverClaim(tx, claim, found))) return { kind: 'in_use' as const }
    return { kind: 'taken_over' as const, since: found.createdAt }
  })
  switch (outcome.kind) {
    case 'claimed':
      return { kind: 'claimed', claim: claimed }
    case 'taken_over':
      app.log.warn('idempotency key taken over from an abandoned request', { claimed_at: new Date(outcome.since).toISOString() })
      return { kind: 'claimed', claim: claimed }
    case 'replay':
      return outcome
    case 'reused':
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with another request (method, path or body): use a new key for a new request',
      )
    case 'in_use':
      throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still in progress: retry once it has answered')
  }
}
