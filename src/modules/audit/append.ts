// appendAudit(): appends one record to its organization's hash chain inside the caller's transaction,
// so the record exists exactly when the change does. Never given a secret (no passwords, tokens or codes).
import type { Actor, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { canonicalRecord, chainHash, type ChainedFields, GENESIS_HASH } from './chain.ts'

export interface AuditActor {
  type: 'user' | 'system' | 'anonymous'
  id: string | null
  /** The session or API key the actor used. */
  credentialId?: string | null
}

export interface AuditInput {
  /** null: the installation chain (e.g. a login with an unknown e-mail). */
  organizationId: string | null
  actor: AuditActor
  /** `resource.verb`, e.g. `login.failure`, `ticket.updated`. */
  event: string
  outcome?: 'success' | 'failure'
  reason?: string
  target?: { type: string; id: string }
  details?: Record<string, unknown>
  request?: RequestMeta | null
  now: number
}

/** The audit actor of a context's actor: a user with the credential used, or the system. */
export function auditActorOf(actor: Actor): AuditInput['actor'] {
  if (actor.kind === 'user') return { type: 'user', id: actor.userId, credentialId: actor.credential.id }
  return actor.credentialId === undefined
    ? { type: 'system', id: actor.id }
    : { type: 'system', id: actor.id, credentialId: actor.credentialId }
}

// The newest record of a chain; the installation chain (no organization) has its own statement so
// both use the (organization_id, seq) index.
const LAST_OF_ORG = 'SELECT seq, hash FROM audit_logs WHERE organization_id = ? ORDER BY seq DESC LIMIT 1'
const LAST_OF_INSTALLATION = 'SELECT seq, hash FROM audit_logs WHERE organization_id IS NULL ORDER BY seq DESC LIMIT 1'
const INSERT =
  'INSERT INTO audit_logs (id, organization_id, seq, created_at, actor_type, actor_id, credential_id, event, outcome, reason, ip, user_agent, request_id, target_type, target_id, details, prev_hash, hash) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'

// PostgreSQL: the same record in one statement (an atCommit block starts its statements without
// awaiting between them). It reads the chain's newest record as LAST_OF_* do and computes the same hash, SHA-256(prev_hash ||
// canonical record) as hex, in SQL: the canonical record is built by canonicalRecord() here, with the seq
// (known only to the statement) spliced in between the text before it and the text after it.
const NEXT = 'coalesce(l.seq, 0) + 1'
const PREV = `coalesce(l.hash, '${GENESIS_HASH}')`
const appendStatement = (last: string) =>
  `${INSERT.slice(0, INSERT.indexOf(' VALUES'))} SELECT ?, ?, ${NEXT}, CAST(? AS BIGINT), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${PREV}, ` +
  `encode(sha256(convert_to(${PREV} || ? || CAST(${NEXT} AS TEXT) || ?, 'UTF8')), 'hex') FROM (SELECT 1 AS one) AS x LEFT JOIN (${last}) AS l ON true`
const APPEND_TO_ORG = appendStatement(LAST_OF_ORG)
const APPEND_TO_INSTALLATION = appendStatement(LAST_OF_INSTALLATION)

/** The key of an organization's log lock (Tx.lockAtCommit): its audit chain and its event stream order. */
export function orgLogKey(organizationId: string | null): string {
  return `org-log:${organizationId ?? 'installation'}`
}

/**
 * Registers the record for the commit pipeline (Tx.atCommit), under its chain's log lock taken there:
 * reading the chain's last record and appending to it happen while no other transaction of the
 * organization can, and the lock is held for the server's execution of the pipeline only. Returns at
 * once; the record is written at commit.
 */
export async function appendAudit(tx: Tx, input: AuditInput): Promise<void> {
  tx.lockAtCommit(orgLogKey(input.organizationId))
  void tx.atCommit(() => (tx.engine === 'postgres' ? appendInOneStatement(tx, input) : appendInTwo(tx, input)))
}

async function appendInTwo(tx: Tx, input: AuditInput): Promise<void> {
  const last =
    input.organizationId === null
      ? await tx.raw.get<{ seq: number; hash: string }>(LAST_OF_INSTALLATION)
      : await tx.raw.get<{ seq: number; hash: string }>(LAST_OF_ORG, [input.organizationId])
  const fields = recordOf(input, Number(last?.seq ?? 0) + 1)
  const prevHash = last?.hash ?? GENESIS_HASH
  await tx.raw.run(INSERT, [...valuesOf(fields), prevHash, chainHash(prevHash, fields)])
}

async function appendInOneStatement(tx: Tx, input: AuditInput): Promise<void> {
  const fields = recordOf(input, 0)
  // The canonical record around its seq: what comes before `0` and what follows it.
  const head = `${JSON.stringify([fields.id, fields.organization_id]).slice(0, -1)},`
  const canonical = canonicalRecord(fields)
  if (!canonical.startsWith(`${head}0,`)) throw new Error('audit: the canonical record does not begin with id, organization_id, seq')
  const params = valuesOf(fields)
  params.splice(2, 1) // the seq: the statement's own
  params.push(head, canonical.slice(head.length + 1))
  if (input.organizationId === null) await tx.raw.run(APPEND_TO_INSTALLATION, params)
  else await tx.raw.run(APPEND_TO_ORG, [...params, input.organizationId])
}

function recordOf(input: AuditInput, seq: number): ChainedFields {
  return {
    id: prefixedId('aud'),
    organization_id: input.organizationId,
    seq,
    created_at: input.now,
    actor_type: input.actor.type,
    actor_id: input.actor.id,
    credential_id: input.actor.credentialId ?? null,
    event: input.event,
    outcome: input.outcome ?? 'success',
    reason: input.reason ?? null,
    ip: input.request?.ip ?? null,
    user_agent: input.request?.userAgent ?? null,
    request_id: input.request?.requestId ?? null,
    target_type: input.target?.type ?? null,
    target_id: input.target?.id ?? null,
    details: JSON.stringify(input.details ?? {}),
  }
}

/** The columns of INSERT up to details, in its order. */
function valuesOf(f: ChainedFields): Array<string | number | null> {
  return [
    f.id,
    f.organization_id,
    f.seq,
    f.created_at,
    f.actor_type,
    f.actor_id,
    f.credential_id,
    f.event,
    f.outcome,
    f.reason,
    f.ip,
    f.user_agent,
    f.request_id,
    f.target_type,
    f.target_id,
    f.details,
  ]
}
