// The Audit log screen: the organization's records newest first (GET /api/v1/audit-logs) with the API's
// filters and cursor paging, each record expandable, and the hash chain verified on request. Needs
// audit:read; other roles are told so in words.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import type { ScreenProps } from '../../screens.ts'
import { ErrorNote, Page, useCan, useLoad } from '../../ui.tsx'
import { AuditFilters, type Filters } from './filters.tsx'
import { AuditRecords } from './records.tsx'
import { VerifyChain } from './verify.tsx'

const PAGE_SIZE = 25

export function Audit(_: ScreenProps) {
  if (!useCan('audit:read'))
    return (
      <Page title="Audit log">
        <ErrorNote error={{ code: 'INSUFFICIENT_PERMISSIONS', message: 'Reading the audit log needs the audit:read permission.' }} />
      </Page>
    )
  return <AuditLog />
}

function AuditLog() {
  const [filters, setFilters] = useState<Filters>({})
  // The cursor of each page visited: the last one is shown; going back pops it.
  const [cursors, setCursors] = useState<string[]>([''])
  const cursor = cursors.at(-1)!
  const canReadUsers = useCan('user:read')
  // The actor filter offers users by name; a role that may not list users types an id.
  const users = useLoad(async () =>
    canReadUsers ? api().GET('/api/v1/users', { params: { query: { page_size: 100, sort: 'name:asc' } } }) : { data: undefined },
  )
  const names = new Map<string, string>((users.data?.users ?? []).map((user) => [user.id, user.name]))
  const page = useLoad(
    () =>
      api().GET('/api/v1/audit-logs', {
        params: { query: { ...filters, page_size: PAGE_SIZE, ...(cursor ? { page_token: cursor } : {}) } },
      }),
    [filters, cursor],
  )
  function apply(next: Filters) {
    setFilters(next)
    setCursors([''])
  }
  const next = page.data?.next_page_token
  return (
    <Page title="Audit log" intro="Security-relevant actions in your organization, newest first. Records are never changed or deleted.">
      <AuditFilters users={users.data?.users} onApply={apply} />
      <ErrorNote error={page.error} />
      {page.data && <AuditRecords records={page.data.audit_logs} names={names} />}
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length === 1 || page.loading}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Newer records
        </button>
        <span class="audit-page">Page {cursors.length}</span>
        <button type="button" class="secondary" disabled={!next || page.loading} onClick={() => next && setCursors([...cursors, next])}>
          Older records
        </button>
      </div>
      <VerifyChain />
    </Page>
  )
}
