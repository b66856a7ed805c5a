// The idempotency module's public entry: Stripe's Idempotency-Key rules as verbs (claim a key before the
// handler, keep or free it after), its cron task, and the rules the HTTP layer checks a key against.
// The HTTP side (which routes take a key, reading the header, replaying) is src/http/idempotency.ts.
export { type BeginInput, type Begun, beginIdempotentRequest } from './begin.ts'
export { type FinishInput, finishIdempotentRequest } from './finish.ts'
export { IDEMPOTENCY_CLEANUP_INTERVAL_MS, idempotencyCleanupTask } from './jobs.ts'
export { ABANDONED_AFTER_MS, isWellFormedKey, KEY_TTL_MS, requestHash } from './rules.ts'
export type { ClaimRef, StoredAnswer } from './store.ts'
export type { IdempotencyKeysTable } from './table.ts'
