// verifyChains: walks every audit chain in order, a page at a time, recomputing each hash; reports the
// first broken link of each chain. Reads one snapshot of the database (DatabaseAdmin.snapshot): a running
// server goes on writing, and no page of a chain moves under the walk.
import type { Ctx } from '../../context.ts'
import type { Queries } from '../../db/database.ts'
import { chainHash, GENESIS_HASH } from './chain.ts'
import { type AuditRow, chainPage, hasInstallationChain, nextChainOrganization } from './store.ts'

/** Records read at once: memory stays flat however long a chain grows. */
export const VERIFY_PAGE_SIZE = 1000

export interface ChainReport {
  /** null: the installation chain (records that belong to no organization). */
  organizationId: string | null
  records: number
  broken?: { seq: number; id: string; problem: string }
}

/** The first problem of `row` given what the chain so far expects, if any. */
function problemOf(row: AuditRow, expectedSeq: number, prevHash: string): string | undefined {
  if (row.seq !== expectedSeq) return `expected record ${expectedSeq} here: records are missing`
  if (row.prev_hash !== prevHash) return 'prev_hash does not match the previous record'
  if (chainHash(row.prev_hash, row) !== row.hash) return 'the record does not match its hash: it was changed'
  return undefined
}

async function verifyChain(view: Queries, organizationId: string | null, pageSize: number): Promise<ChainReport> {
  const report: ChainReport = { organizationId, records: 0 }
  let expectedSeq = 1
  let prevHash = GENESIS_HASH
  let after: { seq: number; id: string } | undefined
  for (;;) {
    const rows = await chainPage(view, organizationId, after, pageSize)
    for (const row of rows) {
      report.records++
      if (report.broken) continue
      const problem = problemOf(row, expectedSeq, prevHash)
      if (problem) report.broken = { seq: row.seq, id: row.id, problem }
      expectedSeq = row.seq + 1
      prevHash = row.hash
    }
    if (rows.length < pageSize) return report
    const last = rows.at(-1)!
    after = { seq: last.seq, id: last.id }
  }
}

/** The chain of one organization (GET /api/v1/audit-logs/verify: an organization checks its own chain). */
export async function verifyOrganizationChain(
  ctx: Pick<Ctx, 'db'>,
  organizationId: string,
  options: { pageSize?: number } = {},
): Promise<ChainReport> {
  return ctx.db.admin.snapshot((view) => verifyChain(view, organizationId, options.pageSize ?? VERIFY_PAGE_SIZE))
}

/** One report per chain: the installation chain first (when it has records), then each organization's by id. */
export async function verifyChains(ctx: Pick<Ctx, 'db'>, options: { pageSize?: number } = {}): Promise<ChainReport[]> {
  const pageSize = options.pageSize ?? VERIFY_PAGE_SIZE
  return ctx.db.admin.snapshot(async (view) => {
    const reports: ChainReport[] = []
    if (await hasInstallationChain(view)) reports.push(await verifyChain(view, null, pageSize))
    for (let org = await nextChainOrganization(view, undefined); org !== undefined; org = await nextChainOrganization(view, org)) {
      reports.push(await verifyChain(view, org, pageSize))
    }
    return reports
  })
}
