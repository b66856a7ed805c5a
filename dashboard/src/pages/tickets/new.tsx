// The "New ticket" form (POST /api/v1/tickets): subject, description, priority, type, first status,
// requester, tags, and the assignee for roles that may assign; opens the new ticket once made.
import { api } from '../../api.ts'
import { navigate } from '../../router.ts'
import { ErrorNote, Page, useAction, useCan, useMe } from '../../ui.tsx'
import { INITIAL_STATUSES, options, PRIORITY_LABELS, STATUS_LABELS, type Ticket, TYPE_LABELS } from './labels.ts'
import { splitTags, useFields, useUsers } from './shared.tsx'

export function NewTicket() {
  const canCreate = useCan('ticket:create')
  const canAssign = useCan('ticket:assign')
  const me = useMe()
  const users = useUsers()
  const { busy, error, run } = useAction()
  const { values, field } = useFields({ priority: 'normal', status: 'new' }, 'new-ticket')
  async function submit(event: SubmitEvent) {
    event.preventDefault()
    const { subject, description, priority, status, type, requester_name, requester_email, tags, assignee_id } = values
    const requester = requester_name || requester_email ? { name: requester_name ?? '', email: requester_email ?? '' } : undefined
    const body = {
      subject: subject ?? '',
      ...(description ? { description } : {}),
      priority: priority as Ticket['priority'],
      status: status as (typeof INITIAL_STATUSES)[number],
      ...(type ? { type: type as Ticket['type'] } : {}),
      ...(requester ? { requester } : {}),
      tags: splitTags(tags),
      ...(assignee_id ? { assignee_id } : {}),
    }
    const created = await run(() => api().POST('/api/v1/tickets', { body }))
    if (created) navigate(`/tickets/${created.id}`)
  }
  if (!canCreate)
    return (
      <Page title="New ticket">
        <p>Your role does not allow creating tickets.</p>
      </Page>
    )
  return (
    <Page title="New ticket">
      <p>
        <a href="/app/tickets">Back to the tickets</a>
      </p>
      <form class="tickets-form" onSubmit={submit}>
        <label for="new-ticket-subject">Subject</label>
        <input {...field('subject')} required maxLength={200} />
        <label for="new-ticket-description">Description</label>
        <textarea {...field('description')} rows={5} />
        <label for="new-ticket-priority">Priority</label>
        <select {...field('priority')}>
          {options(PRIORITY_LABELS).map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
        <label for="new-ticket-type">Type</label>
        <select {...field('type')}>
          <option value="">None</option>
          {options(TYPE_LABELS).map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
        <label for="new-ticket-status">Status</label>
        <select {...field('status')}>
          {INITIAL_STATUSES.map((value) => (
            <option value={value}>{STATUS_LABELS[value]}</option>
          ))}
        </select>
        <fieldset>
          <legend>Requester (optional: finds or creates the contact by e-mail)</legend>
          <label for="new-ticket-requester_name">Requester's name</label>
          <input {...field('requester_name')} autocomplete="off" required={!!values.requester_email} />
          <label for="new-ticket-requester_email">Requester's e-mail</label>
          <input {...field('requester_email')} type="email" autocomplete="off" required={!!values.requester_name} />
        </fieldset>
        <label for="new-ticket-tags">Tags (separated by spaces or commas)</label>
        <input {...field('tags')} autocomplete="off" />
        {canAssign && (
          <>
            <label for="new-ticket-assignee_id">Assignee</label>
            <select {...field('assignee_id')}>
              <option value="">Nobody</option>
              <option value={me.id}>Me</option>
              {users
                .filter((user) => user.id !== me.id && user.status === 'active')
                .map((user) => (
                  <option value={user.id}>{user.name}</option>
                ))}
            </select>
          </>
        )}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create ticket'}
        </button>
      </form>
    </Page>
  )
}
