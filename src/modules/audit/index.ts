// The audit module's public entry: GET /api/v1/audit-logs (the caller's organization's audit log) and
// GET /api/v1/audit-logs/verify (its chain checked), appending to a chain inside a transaction, and
// verifying every chain (`switchboard audit verify`).
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { listBody } from '../../db/list.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { auditLogJson } from './audit-log-json.ts'
import { listAuditLogs } from './list-audit-logs.ts'
import { AuditLogList, AuditLogQuery, ChainVerification } from './model.ts'
import { verifyOrganizationChain } from './verify-chains.ts'

export function auditRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1' })
    .use(authMacros(app))
    .get(
      '/audit-logs',
      async ({ ctx, query }) => {
        const { event, actor_id, since, until } = query
        const page = await listAuditLogs(ctx, { event, actor_id, since, until }, listRequest(query))
        return listBody('audit_logs', page, auditLogJson)
      },
      {
        permission: 'audit:read',
        query: AuditLogQuery,
        response: { 200: AuditLogList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags: ['Audit'],
          operationId: 'listAuditLogs',
          summary: 'List audit records',
          description:
            'Newest first. Append-only and hash-chained per organization: GET /api/v1/audit-logs/verify checks your chain, `switchboard audit verify` every chain.',
        },
      },
    )
    .get(
      '/audit-logs/verify',
      async ({ ctx, actor }) => {
        const report = await verifyOrganizationChain(ctx, actor.organizationId)
        return { intact: report.broken === undefined, records: report.records, broken: report.broken ?? null }
      },
      {
        permission: 'audit:read',
        response: { 200: ChainVerification, ...protectedErrors() },
        detail: {
          tags: ['Audit'],
          operationId: 'verifyAuditChain',
          summary: "Verify your organization's audit chain",
          description:
            'Recomputes every hash of the chain, oldest first, on one consistent snapshot, and names the first broken link: a record changed, one missing, or one out of place. Reads the whole chain: meant for a person asking, not for polling.',
        },
      },
    )
}

export { type AuditActor, type AuditInput, appendAudit, auditActorOf, orgLogKey } from './append.ts'
export { type ChainReport, verifyChains, verifyOrganizationChain } from './verify-chains.ts'
