// A ticket's write controls: its status (the API decides which moves are allowed and says why not), its
// priority (ticket:update), and its assignee, a user of the organization or "me" (ticket:assign).
import { useEffect, useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, useAction, useCan, useMe } from '../../ui.tsx'
import { options, PRIORITY_LABELS, STATUS_LABELS, type Ticket } from './labels.ts'
import type { User } from './shared.tsx'

interface ControlProps {
  ticket: Ticket
  onChange: (ticket: Ticket) => void
}

/** A select and its button, as one small form: the API's answer replaces the ticket, or its refusal is shown. */
function Change<K extends string>(props: {
  id: string
  label: string
  action: string
  current: K
  choices: [K, string][]
  send: (value: K) => Promise<{ data?: Ticket; error?: unknown }>
  onChange: (ticket: Ticket) => void
}) {
  const { busy, error, run } = useAction()
  const [value, setValue] = useState(props.current)
  const [done, setDone] = useState('')
  // The ticket changed by another control (Assign to me): the picker follows it.
  useEffect(() => setValue(props.current), [props.current])
  async function submit(event: SubmitEvent) {
    event.preventDefault()
    setDone('')
    const data = await run(() => props.send(value))
    if (!data) return
    props.onChange(data)
    setDone(`${props.label}: ${props.choices.find(([key]) => key === value)?.[1] ?? value}.`)
  }
  const pick = (event: Event) => setValue((event.currentTarget as HTMLSelectElement).value as K)
  return (
    <form class="inline tickets-control" onSubmit={submit}>
      <div class="tickets-filter">
        <label for={props.id}>{props.label}</label>
        <select id={props.id} value={value} onInput={pick} onChange={pick}>
          {props.choices.map(([key, label]) => (
            <option value={key}>{label}</option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={busy || value === props.current}>
        {props.action}
      </button>
      <p role="status" class="tickets-done">
        {done}
      </p>
      <ErrorNote error={error} />
    </form>
  )
}

export function StatusControl({ ticket, onChange }: ControlProps) {
  const patch = (status: Ticket['status']) => api().PATCH('/api/v1/tickets/{id}', { params: { path: { id: ticket.id } }, body: { status } })
  return (
    <Change
      id="ticket-status"
      label="Status"
      action="Change status"
      current={ticket.status}
      choices={options(STATUS_LABELS)}
      send={patch}
      onChange={onChange}
    />
  )
}

export function PriorityControl({ ticket, onChange }: ControlProps) {
  const patch = (priority: Ticket['priority']) =>
    api().PATCH('/api/v1/tickets/{id}', { params: { path: { id: ticket.id } }, body: { priority } })
  return (
    <Change
      id="ticket-priority"
      label="Priority"
      action="Change priority"
      current={ticket.priority}
      choices={options(PRIORITY_LABELS)}
      send={patch}
      onChange={onChange}
    />
  )
}

export function AssignControl({ ticket, users, onChange }: ControlProps & { users: User[] }) {
  const me = useMe()
  const canReadUsers = useCan('user:read')
  const mine = useAction()
  const assign = (assignee: string) =>
    api().POST('/api/v1/tickets/{id}/assign', {
      params: { path: { id: ticket.id } },
      body: { assignee_id: assignee === '' ? null : assignee },
    })
  // Active users only: the API assigns to no other; the current assignee stays listed whatever its state.
  const choices: [string, string][] = [['', 'Nobody']]
  choices.push([me.id, `${me.name} (you)`])
  for (const user of users)
    if (user.id !== me.id && (user.status === 'active' || user.id === ticket.assignee_id)) choices.push([user.id, user.name])
  if (ticket.assignee_id && !choices.some(([id]) => id === ticket.assignee_id)) choices.push([ticket.assignee_id, ticket.assignee_id])
  async function assignToMe() {
    const data = await mine.run(() => assign(me.id))
    if (data) onChange(data)
  }
  return (
    <div>
      <Change
        id="ticket-assignee"
        label="Assignee"
        action="Assign"
        current={ticket.assignee_id ?? ''}
        choices={choices}
        send={assign}
        onChange={onChange}
      />
      {!canReadUsers && <p class="muted">Your role cannot list the organization's users: assign to yourself or to nobody.</p>}
      {ticket.assignee_id !== me.id && (
        <button type="button" class="secondary" onClick={assignToMe} disabled={mine.busy}>
          Assign to me
        </button>
      )}
      <ErrorNote error={mine.error} />
    </div>
  )
}
