// The audit module's public entry: GET /api/v1/audit-logs (the caller's organization's audit log), and
// appending to a chain inside a transaction.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { listAuditLogs } from './list-audit-logs.ts'
import { AuditLogList, AuditLogQuery } from './model.ts'

export function auditRoutes(deps: AppDeps) {
  return new Elysia({ prefix: '/api/v1' }).use(authMacros(deps)).get(
    '/audit-logs',
    ({ actor, query }) => {
      const { event, actor_id, since, until } = query
      return listAuditLogs(deps, actor, { event, actor_id, since, until }, listRequest(query))
    },
    {
      permission: 'audit:read',
      query: AuditLogQuery,
      response: { 200: AuditLogList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
      detail: {
        tags: ['Audit'],
        operationId: 'listAuditLogs', summary: 'List audit records',
        description: 'Newest first. Append-only and hash-chained per organization: `switchboard audit verify` checks every chain.',
      },
    },
  )
}

export { appendAudit, auditActorOf } from './append.ts'
export { actorOf, audit, type AuditActor, type AuditInput, SYSTEM_ACTOR } from './record.ts'
