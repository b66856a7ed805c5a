// Query and response schemas of the audit log endpoint.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'

const Nullable = <S extends ReturnType<typeof t.String>>(schema: S) => t.Union([schema, t.Null()])

export const AuditLogItem = t.Object(
  {
    id: t.String({ examples: ['aud_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    seq: t.Integer({ description: "Position in the organization's chain, from 1" }),
    created_at: t.String({ format: 'date-time' }),
    organization_id: Nullable(t.String()),
    actor: t.Object({ type: t.String({ description: 'user, system or anonymous' }), id: Nullable(t.String()) }),
    credential_id: Nullable(t.String({ description: 'The session or API key the actor used' })),
    event: t.String({ examples: ['login.success', 'mfa.verify.failure', 'pat.created'] }),
    outcome: t.Union([t.Literal('success'), t.Literal('failure')]),
    reason: Nullable(t.String()),
    ip: Nullable(t.String()),
    user_agent: Nullable(t.String()),
    request_id: Nullable(t.String()),
    target: t.Union([t.Object({ type: t.String(), id: Nullable(t.String()) }), t.Null()]),
    details: t.Record(t.String(), t.Unknown()),
    prev_hash: t.String({ description: 'hash of the previous record of the chain (64 zeros for the first)' }),
    hash: t.String({ description: 'SHA-256 of prev_hash and the canonical record' }),
  },
  {
    title: 'AuditLog',
    examples: [
      {
        id: 'aud_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        seq: 42,
        created_at: '2026-01-15T09:30:00.000Z',
        organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QA',
        actor: { type: 'user', id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ' },
        credential_id: 'ses_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        event: 'login.success',
        outcome: 'success',
        reason: null,
        ip: '203.0.113.7',
        user_agent: 'Mozilla/5.0',
        request_id: 'req_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        target: { type: 'user', id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ' },
        details: {},
        prev_hash: '0000000000000000000000000000000000000000000000000000000000000000',
        hash: 'abababababababababababababababababababababababababababababababab',
      },
    ],
  },
)

export const AuditLogQuery = t.Object({
  event: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  actor_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  since: t.Optional(t.String({ format: 'date-time', description: 'Records at or after this time' })),
  until: t.Optional(t.String({ format: 'date-time', description: 'Records before this time' })),
  ...pagingQuery(['created_at']),
})

export const AuditLogList = listResponse('audit_logs', AuditLogItem)

export const ChainVerification = t.Object(
  {
    intact: t.Boolean({ description: 'Every record matches its hash and follows the previous one' }),
    records: Type.Integer({ description: "Records in the organization's chain" }),
    broken: t.Union([
      t.Object(
        {
          seq: Type.Integer({ description: 'Where the chain first breaks' }),
          id: t.String(),
          problem: t.String({ examples: ['the record does not match its hash: it was changed'] }),
        },
        { description: 'The first broken link; null when intact' },
      ),
      t.Null(),
    ]),
  },
  {
    title: 'AuditChainVerification',
    examples: [
      { intact: true, records: 1842, broken: null },
      {
        intact: false,
        records: 1842,
        broken: { seq: 1207, id: 'aud_01KAX3M6W9P8T2V5G7H4J3C1QZ', problem: 'the record does not match its hash: it was changed' },
      },
    ],
  },
)
