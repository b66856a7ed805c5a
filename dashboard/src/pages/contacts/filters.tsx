// The contacts list's search and filters (type, tag, blocked, owner) and its sort, applied to the URL
// query; and the note of the account the list is limited to.
import { api } from '../../api.ts'
import { useLoad, useMe } from '../../ui.tsx'
import { options } from '../tickets/labels.ts'
import { applyFilters, type User, useFields } from '../tickets/shared.tsx'
import { CONTACT_SORTS, TYPE_LABELS } from './labels.ts'

export function ContactFilters({ filters, users }: { filters: Record<string, string>; users: User[] }) {
  const me = useMe()
  const { values, field } = useFields(filters, 'contacts-filter')
  function submit(event: SubmitEvent) {
    event.preventDefault()
    applyFilters('/contacts', values)
  }
  return (
    <form class="inline tickets-filters" onSubmit={submit} aria-label="Search and filter contacts">
      <div class="tickets-filter contacts-search">
        <label for="contacts-filter-q">Search</label>
        <input {...field('q')} type="search" autocomplete="off" aria-describedby="contacts-search-hint" />
      </div>
      <div class="tickets-filter">
        <label for="contacts-filter-contact_type">Type</label>
        <select {...field('contact_type')}>
          <option value="">Any</option>
          {options(TYPE_LABELS).map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
      </div>
      <div class="tickets-filter">
        <label for="contacts-filter-tag">Tag</label>
        <input {...field('tag')} type="search" autocomplete="off" />
      </div>
      <div class="tickets-filter">
        <label for="contacts-filter-blocked">Blocked</label>
        <select {...field('blocked')}>
          <option value="">Either</option>
          <option value="true">Blocked</option>
          <option value="false">Not blocked</option>
        </select>
      </div>
      <div class="tickets-filter">
        <label for="contacts-filter-owner_id">Owner</label>
        <select {...field('owner_id')}>
          <option value="">Anyone</option>
          <option value={me.id}>Me</option>
          <option value="none">Nobody</option>
          {users
            .filter((user) => user.id !== me.id)
            .map((user) => (
              <option value={user.id}>{user.name}</option>
            ))}
        </select>
      </div>
      <div class="tickets-filter">
        <label for="contacts-filter-sort">Sort</label>
        <select {...field('sort')}>
          {options(CONTACT_SORTS).map(([value, label]) => (
            <option value={value === 'created_at:desc' ? '' : value}>{label}</option>
          ))}
        </select>
      </div>
      <div class="tickets-filter-actions">
        <button type="submit">Search</button>
        <a href="/app/contacts">Clear filters</a>
      </div>
      <p id="contacts-search-hint" class="muted contacts-hint">
        Search finds the beginning of a name, an e-mail address, a phone number (+4420…) or an external id.
      </p>
    </form>
  )
}

/** Which account the list is limited to (by its name when the account can be read). */
export function AccountNote({ id }: { id: string }) {
  const account = useLoad(() => api().GET('/api/v1/accounts/{id}', { params: { path: { id } } }), [id])
  return (
    <p>
      Only the contacts of the account <strong>{account.data?.name ?? id}</strong>. <a href="/app/contacts">Show every contact</a>
    </p>
  )
}
