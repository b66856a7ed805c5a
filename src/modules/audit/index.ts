// The audit module's public entry: GET /api/v1/audit-logs (the caller's organization's audit log),
// appending to a chain inside a transaction, and verifying every chain (`switchboard audit verify`).
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { listBody } from '../../db/list.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { auditLogJson } from './audit-log-json.ts'
import { listAuditLogs } from './list-audit-logs.ts'
import { AuditLogList, AuditLogQuery } from './model.ts'

export function auditRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1' }).use(authMacros(app)).get(
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
        description: 'Newest first. Append-only and hash-chained per organization: `switchboard audit verify` checks every chain.',
      },
    },
  )
}

export { type AuditActor, type AuditInput, appendAudit, auditActorOf, orgLogKey } from './append.ts'
export { type ChainReport, verifyChains } from './verify-chains.ts'
