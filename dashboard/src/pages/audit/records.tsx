// The audit records of one page: a row each (when, who, what, outcome, target), and under it, on request,
// everything the record holds: details, address, device, request, and its place in the hash chain.
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { When } from '../../ui.tsx'

type Record = Schemas['AuditLog']

function actorOf(record: Record, names: Map<string, string>): string {
  const { type, id } = record.actor
  if (type === 'system') return 'System'
  if (!id) return type === 'anonymous' ? 'Anonymous' : type
  return names.get(id) ?? id
}

function targetOf(record: Record, names: Map<string, string>): string {
  if (!record.target) return '—'
  const { type, id } = record.target
  return id ? `${type} ${(type === 'user' && names.get(id)) || id}` : type
}

function Details({ record }: { record: Record }) {
  const rows: [string, string | null][] = [
    ['Record', `${record.seq} (${record.id})`],
    ['Reason', record.reason],
    ['Address', record.ip],
    ['Device', record.user_agent],
    ['Request', record.request_id],
    ['Session or key', record.credential_id],
    ['Hash', record.hash],
    ['Previous hash', record.prev_hash],
  ]
  return (
    <dl class="audit-details">
      {rows
        .filter(([, value]) => value !== null)
        .map(([term, value]) => (
          <>
            <dt>{term}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </>
        ))}
      <dt>Details</dt>
      <dd>
        <pre>{JSON.stringify(record.details, null, 2)}</pre>
      </dd>
    </dl>
  )
}

export function AuditRecords({ records, names }: { records: Record[]; names: Map<string, string> }) {
  const [open, setOpen] = useState<Set<string>>(new Set())
  function toggle(id: string) {
    const next = new Set(open)
    if (!next.delete(id)) next.add(id)
    setOpen(next)
  }
  if (records.length === 0) return <p role="status">No record matches these filters.</p>
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Outcome</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <>
              <tr>
                <td>
                  <When at={record.created_at} />
                </td>
                <td>{actorOf(record, names)}</td>
                <td>
                  <code class="audit-event">{record.event}</code>
                </td>
                <td class={record.outcome === 'failure' ? 'error' : ''}>{record.outcome}</td>
                <td>{targetOf(record, names)}</td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    aria-expanded={open.has(record.id)}
                    aria-controls={open.has(record.id) ? `audit-${record.id}` : undefined}
                    onClick={() => toggle(record.id)}
                  >
                    {open.has(record.id) ? 'Hide' : 'Show'}
                    <span class="audit-sr"> record {record.seq}</span>
                  </button>
                </td>
              </tr>
              {open.has(record.id) && (
                <tr id={`audit-${record.id}`}>
                  <td colSpan={6}>
                    <Details record={record} />
                  </td>
                </tr>
              )}
            </>
          ))}
        </tbody>
      </table>
    </div>
  )
}
