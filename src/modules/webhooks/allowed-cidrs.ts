// The internal ranges one organization's webhooks may reach although they are not public: an operator
// setting (`switchboard org webhook-cidrs`), never the tenant's, because a delivery record shows the
// tenant the first 16 KB of every answer. Read at registration, and joined into every claim for the send.
import type { Ctx, SystemActor } from '../../context.ts'
import type { Queries } from '../../db/database.ts'
import { cidrContains, parseCidr, type Cidr } from '../../lib/cidr.ts'
import { memoize } from '../../lib/memo.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { allowedCidrsColumn, saveAllowedCidrs } from './store/webhooks.ts'

/** At most this many ranges per organization: a list, not a routing table. */
export const MAX_ALLOWED_CIDRS = 100

/**
 * Comma-separated ranges, each a CIDR or a bare address. Refuses an IPv6 range that contains
 * ::ffff:0:0/96: `::ffff:10.0.0.0/8` reads as 8 bits of 128 and would let webhooks reach every IPv4
 * address, loopback included.
 */
export function parseAllowedCidrs(text: string): { cidrs: Cidr[] } | { problem: string } {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (items.length === 0) return { problem: 'needs at least one CIDR range, e.g. 10.0.0.0/8' }
  if (items.length > MAX_ALLOWED_CIDRS) return { problem: `takes at most ${MAX_ALLOWED_CIDRS} ranges` }
  const bad = items.filter((s) => !parseCidr(s))
  if (bad.length > 0) return { problem: `has invalid IP addresses or CIDR ranges: ${bad.join(', ')}` }
  const cidrs = items.map((s) => parseCidr(s)!)
  const tooWide = cidrs.filter((r) => r.text.includes(':') && r.prefix <= 96 && cidrContains(r, '::ffff:0.0.0.0'))
  if (tooWide.length > 0)
    return { problem: `${tooWide.map((r) => r.text).join(', ')} would cover every IPv4 address; write IPv4 ranges as a.b.c.d/n` }
  return { cidrs: [...new Map(cidrs.map((c) => [c.text, c])).values()] }
}

/**
 * The stored column (JSON array, or null without a row) as ranges. Kept by text, so one list is one
 * array: the send path remembers its address verdicts per array. Stored lists were checked on the
 * way in; anything unreadable counts as no range (refuse, never allow).
 */
export const allowedCidrsFromColumn = memoize((column: string | null): readonly Cidr[] => {
  if (column === null) return Object.freeze([])
  let texts: unknown
  try {
    texts = JSON.parse(column)
  } catch {
    return Object.freeze([])
  }
  if (!Array.isArray(texts)) return Object.freeze([])
  return Object.freeze(texts.flatMap((text) => (typeof text === 'string' ? (parseCidr(text) ?? []) : [])))
}, 1000)

/** The organization's allowed ranges as written (empty: public addresses only). */
export async function readAllowedCidrs(db: Queries, organizationId: string): Promise<string[]> {
  return allowedCidrsFromColumn(await allowedCidrsColumn(db, organizationId)).map((c) => c.text)
}

/** The organization's allowed ranges, for a URL check. */
export async function allowedCidrsOf(db: Queries, organizationId: string): Promise<readonly Cidr[]> {
  return allowedCidrsFromColumn(await allowedCidrsColumn(db, organizationId))
}

/**
 * The operator replaces the organization's list (empty: removes it), with an audit record in its chain;
 * returns the list now in force. Webhooks registered under a wider list stay registered: each send
 * checks again.
 */
export async function changeAllowedCidrs(
  ctx: Ctx<SystemActor>,
  input: { organizationId: string; cidrs: readonly Cidr[] },
): Promise<string[]> {
  const now = ctx.clock.now()
  const after = input.cidrs.map((c) => c.text)
  return ctx.db.write('webhook.allowed_cidrs.set', async (tx) => {
    // The audit record's before is what this change replaced: changes at once take turns (the row may not exist yet).
    await tx.lock(`webhook-cidrs:${input.organizationId}`)
    const before = await readAllowedCidrs(tx, input.organizationId)
    await saveAllowedCidrs(tx, input.organizationId, after, now)
    await appendAudit(tx, {
      organizationId: input.organizationId,
      actor: auditActorOf(ctx.actor),
      event: 'organization.webhook_cidrs_changed',
      target: { type: 'organization', id: input.organizationId },
      details: { before, after },
      now,
    })
    return after
  })
}
