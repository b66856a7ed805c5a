// The internal ranges one organization's webhooks may reach although they are not public: an operator
// setting (`switchboard org webhook-cidrs`), never the tenant's, because a delivery record shows the
// tenant the first 16 KB of every answer. Read at registration, and joined into every claim for the send.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/tx.ts'
import { cidrContains, parseCidr, type Cidr } from '../../lib/cidr.ts'
import { memoize } from '../../lib/memo.ts'
import { audit, type AuditActor } from '../audit/record.ts'
import { webhookAllowedCidrs } from './table.ts'

/** At most this many ranges per organization: a list, not a routing table. */
export const MAX_ALLOWED_CIDRS = 100

/**
 * Comma-separated ranges, each a CIDR or a bare address. Refuses an IPv6 range that contains
 * ::ffff:0:0/96: `::ffff:10.0.0.0/8` reads as 8 bits of 128 and would let webhooks reach every IPv4
 * address, loopback included.
 */
export function parseAllowedCidrs(text: string): { cidrs: Cidr[] } | { problem: string } {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '')
  if (items.length === 0) return { problem: 'needs at least one CIDR range, e.g. 10.0.0.0/8' }
  if (items.length > MAX_ALLOWED_CIDRS) return { problem: `takes at most ${MAX_ALLOWED_CIDRS} ranges` }
  const bad = items.filter((s) => !parseCidr(s))
  if (bad.length > 0) return { problem: `has invalid IP addresses or CIDR ranges: ${bad.join(', ')}` }
  const cidrs = items.map((s) => parseCidr(s)!)
  const tooWide = cidrs.filter((r) => r.text.includes(':') && r.prefix <= 96 && cidrContains(r, '::ffff:0.0.0.0'))
  if (tooWide.length > 0) return { problem: `${tooWide.map((r) => r.text).join(', ')} would cover every IPv4 address; write IPv4 ranges as a.b.c.d/n` }
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
export function findAllowedCidrs(db: Db, organizationId: string): string[] {
  return allowedCidrsFromColumn(columnOf(db, organizationId)).map((c) => c.text)
}

/** The organization's allowed ranges, for a URL check. */
export function allowedCidrsOf(db: Db, organizationId: string): readonly Cidr[] {
  return allowedCidrsFromColumn(columnOf(db, organizationId))
}

function columnOf(db: Db, organizationId: string): string | null {
  return db.select({ cidrs: webhookAllowedCidrs.cidrs }).from(webhookAllowedCidrs).where(eq(webhookAllowedCidrs.organization_id, organizationId)).get()?.cidrs ?? null
}

/**
 * Replaces the organization's list (empty: removes it), with an audit record in its chain; returns the
 * list now in force. Webhooks registered under a wider list stay registered: each send checks again.
 */
export function setAllowedCidrs(tx: Db, organizationId: string, cidrs: readonly Cidr[], actor: AuditActor, now: number): string[] {
  const before = findAllowedCidrs(tx, organizationId)
  const after = cidrs.map((c) => c.text)
  if (after.length === 0) tx.delete(webhookAllowedCidrs).where(eq(webhookAllowedCidrs.organization_id, organizationId)).run()
  else {
    const row = { organization_id: organizationId, cidrs: JSON.stringify(after), updated_at: now }
    tx.insert(webhookAllowedCidrs).values(row).onConflictDoUpdate({ target: webhookAllowedCidrs.organization_id, set: { cidrs: row.cidrs, updated_at: now } }).run()
  }
  audit(tx, { organizationId, actor, event: 'organization.webhook_cidrs_changed', target: { type: 'organization', id: organizationId }, details: { before, after }, now })
  return after
}
