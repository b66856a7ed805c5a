// The audit log's filters, as the API has them: the actor (a user picked by name when the role may list
// users, else typed as an id), the action (event), and a time range whose datetime-local values (the
// reader's zone) are sent as ISO 8601 instants; `until` is exclusive.
import { formValues } from '../../sign-in.tsx'

export interface Filters {
  actor_id?: string
  event?: string
  since?: string
  until?: string
}

/** Events a reader is likely to look for (the field takes any event name). */
const EVENTS = [
  'login.success',
  'login.failure',
  'logout',
  'mfa.enroll',
  'mfa.factor_changed',
  'mfa.remove',
  'mfa.verify.failure',
  'password.change',
  'session.ended',
  'session.evicted',
  'pat.created',
  'pat.revoked',
  'ip.denied',
  'security.updated',
  'user.created',
  'user.updated',
  'user.deleted',
  'webhook.created',
  'webhook.deleted',
]

/** A datetime-local value ("2026-01-15T09:30", the reader's zone) as an ISO instant. */
const instant = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined)

/** A user as the actor picker shows it. */
interface Person {
  id: string
  name: string
  email: string
}

export function AuditFilters({ users, onApply }: { users: Person[] | undefined; onApply: (filters: Filters) => void }) {
  function submit(event: SubmitEvent) {
    const { actor, action, from, to } = formValues(event)
    const filters: Filters = { actor_id: actor?.trim(), event: action?.trim(), since: instant(from), until: instant(to) }
    onApply(Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as Filters)
  }
  return (
    <form class="inline audit-filters" aria-label="Filter the records" onSubmit={submit} onReset={() => onApply({})}>
      {users ? (
        <label>
          Actor
          <select name="actor">
            <option value="">Anyone</option>
            {users.map((user) => (
              <option value={user.id}>
                {user.name} ({user.email})
              </option>
            ))}
          </select>
        </label>
      ) : (
        <label>
          Actor (user ID)
          <input name="actor" placeholder="usr_…" />
        </label>
      )}
      <label>
        Action
        <input name="action" list="audit-events" placeholder="e.g. user.updated" />
      </label>
      <datalist id="audit-events">
        {EVENTS.map((name) => (
          <option value={name} />
        ))}
      </datalist>
      <label>
        From
        <input name="from" type="datetime-local" />
      </label>
      <label>
        Until
        <input name="to" type="datetime-local" />
      </label>
      <button type="submit">Filter</button>
      <button type="reset" class="secondary">
        Clear
      </button>
    </form>
  )
}
