// The tickets list's filters: the API's (status, priority, assignee, tag, creation window) and its sort,
// applied to the URL query so that a reload, Back or a shared link shows the same list.
import { useMe } from '../../ui.tsx'
import { options, PRIORITY_LABELS, STATUS_LABELS, TICKET_SORTS } from './labels.ts'
import { applyFilters, type User, useFields } from './shared.tsx'

export const TICKET_FILTERS = ['status', 'priority', 'assignee_id', 'tag', 'contact_id', 'created_after', 'created_before', 'sort'] as const

export function TicketFilters({ filters, users }: { filters: Record<string, string>; users: User[] }) {
  const me = useMe()
  const { values, field } = useFields(filters, 'tickets-filter')
  function submit(event: SubmitEvent) {
    event.preventDefault()
    applyFilters('/tickets', values)
  }
  const others = users.filter((user) => user.id !== me.id)
  return (
    <form class="inline tickets-filters" onSubmit={submit} aria-label="Filter tickets">
      <div class="tickets-filter">
        <label for="tickets-filter-status">Status</label>
        <select {...field('status')}>
          <option value="">Any</option>
          {options(STATUS_LABELS).map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
      </div>
      <div class="tickets-filter">
        <label for="tickets-filter-priority">Priority</label>
        <select {...field('priority')}>
          <option value="">Any</option>
          {options(PRIORITY_LABELS).map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
      </div>
      <div class="tickets-filter">
        <label for="tickets-filter-assignee_id">Assignee</label>
        <select {...field('assignee_id')}>
          <option value="">Anyone</option>
          <option value={me.id}>Me</option>
          <option value="none">Nobody (unassigned)</option>
          {others.map((user) => (
            <option value={user.id}>{user.name}</option>
          ))}
        </select>
      </div>
      <div class="tickets-filter">
        <label for="tickets-filter-tag">Tag</label>
        <input {...field('tag')} type="search" autocomplete="off" />
      </div>
      <div class="tickets-filter">
        <label for="tickets-filter-created_after">Created from</label>
        <input {...field('created_after')} type="date" />
      </div>
      <div class="tickets-filter">
        <label for="tickets-filter-created_before">Created before</label>
        <input {...field('created_before')} type="date" />
      </div>
      <div class="tickets-filter">
        <label for="tickets-filter-sort">Sort</label>
        <select {...field('sort')}>
          {options(TICKET_SORTS).map(([value, label]) => (
            <option value={value === 'created_at:desc' ? '' : value}>{label}</option>
          ))}
        </select>
      </div>
      <div class="tickets-filter-actions">
        <button type="submit">Apply filters</button>
        <a href="/app/tickets">Clear filters</a>
      </div>
    </form>
  )
}
