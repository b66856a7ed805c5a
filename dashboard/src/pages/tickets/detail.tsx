// One ticket (/app/tickets/<id>): its fields and description, its comments, and the controls the role
// has (status and priority with ticket:update, assignee with ticket:assign, comment with ticket:comment).
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, Page, useCan, useLoad, When } from '../../ui.tsx'
import { Comments } from './comments.tsx'
import { AssignControl, PriorityControl, StatusControl } from './controls.tsx'
import { CHANNEL_LABELS, PRIORITY_LABELS, STATUS_LABELS, type Ticket, TYPE_LABELS } from './labels.ts'
import { Field, Tags, useUserName, useUsers } from './shared.tsx'

export function TicketDetail({ id }: { id: string }) {
  const loaded = useLoad(() => api().GET('/api/v1/tickets/{id}', { params: { path: { id } } }), [id])
  // The API's answer to a change replaces the ticket as loaded.
  const [changed, setChanged] = useState<Ticket | undefined>()
  const users = useUsers()
  const name = useUserName(users)
  const canUpdate = useCan('ticket:update')
  const canAssign = useCan('ticket:assign')
  const canComment = useCan('ticket:comment')
  const ticket = changed ?? loaded.data
  if (!ticket)
    return (
      <Page title="Ticket">
        <p>
          <a href="/app/tickets">All tickets</a>
        </p>
        {loaded.loading ? <p role="status">Loading…</p> : <ErrorNote error={loaded.error} />}
      </Page>
    )
  const closed = ticket.status === 'closed'
  return (
    <Page title={`#${ticket.number} ${ticket.subject}`}>
      <p>
        <a href="/app/tickets">All tickets</a>
      </p>
      <div class="tickets-detail">
        <section aria-labelledby="ticket-fields" class="panel">
          <h2 id="ticket-fields">Details</h2>
          <dl class="tickets-fields">
            <Field label="Status">{STATUS_LABELS[ticket.status]}</Field>
            <Field label="Priority">{PRIORITY_LABELS[ticket.priority]}</Field>
            <Field label="Type">{ticket.type ? TYPE_LABELS[ticket.type] : <span class="muted">none</span>}</Field>
            <Field label="Channel">{CHANNEL_LABELS[ticket.channel]}</Field>
            <Field label="Assignee">{name(ticket.assignee_id)}</Field>
            <Field label="Requester">
              {ticket.requester ? `${ticket.requester.name} <${ticket.requester.email}>` : <span class="muted">none</span>}
            </Field>
            <Field label="Contact">
              {ticket.contact_id ? <a href={`/app/contacts/${ticket.contact_id}`}>Open the contact</a> : <span class="muted">none</span>}
            </Field>
            <Field label="Tags">
              <Tags tags={ticket.tags} />
            </Field>
            {Object.entries(ticket.custom_fields).map(([key, value]) => (
              <Field label={key}>{String(value)}</Field>
            ))}
            <Field label="Created">
              <When at={ticket.created_at} />
            </Field>
            <Field label="Updated">
              <When at={ticket.updated_at} />
            </Field>
            {ticket.solved_at && (
              <Field label="Solved">
                <When at={ticket.solved_at} />
              </Field>
            )}
            {ticket.closed_at && (
              <Field label="Closed">
                <When at={ticket.closed_at} />
              </Field>
            )}
          </dl>
        </section>
        {closed && (canUpdate || canAssign || canComment) && (
          <p class="panel">This ticket is closed: it can be read, but no longer changed, assigned or commented on.</p>
        )}
        {!closed && (canUpdate || canAssign) && (
          <section aria-labelledby="ticket-work" class="panel">
            <h2 id="ticket-work">Work on it</h2>
            {canUpdate && <StatusControl ticket={ticket} onChange={setChanged} />}
            {canUpdate && <PriorityControl ticket={ticket} onChange={setChanged} />}
            {canAssign && <AssignControl ticket={ticket} users={users} onChange={setChanged} />}
          </section>
        )}
      </div>
      <h2>Description</h2>
      {ticket.description ? <p class="tickets-text">{ticket.description}</p> : <p class="muted">No description.</p>}
      <Comments ticket={ticket} users={users} canComment={canComment && !closed} />
    </Page>
  )
}
