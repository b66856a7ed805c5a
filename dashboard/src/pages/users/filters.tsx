// The users list's filters, as the API has them: role, status, and the start of a name or an e-mail.
import { ROLE_LABELS, ROLES, type Role } from './roles.ts'

export interface Filters {
  role?: Role
  status?: 'active' | 'disabled'
  q?: string
}

export function UserFilters({ value, onChange }: { value: Filters; onChange: (filters: Filters) => void }) {
  function submit(event: SubmitEvent) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const role = String(form.get('role') ?? '')
    const status = String(form.get('status') ?? '')
    const q = String(form.get('q') ?? '').trim()
    onChange({
      ...(role ? { role: role as Role } : {}),
      ...(status ? { status: status as Filters['status'] } : {}),
      ...(q ? { q } : {}),
    })
  }
  return (
    <form class="inline users-filters" onSubmit={submit} aria-label="Filter users">
      <div class="users-field">
        <label for="users-filter-role">Role</label>
        <select id="users-filter-role" name="role">
          <option value="" selected={!value.role}>
            Any role
          </option>
          {ROLES.map((role) => (
            <option value={role} selected={value.role === role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </div>
      <div class="users-field">
        <label for="users-filter-status">Status</label>
        <select id="users-filter-status" name="status">
          <option value="" selected={!value.status}>
            Any status
          </option>
          <option value="active" selected={value.status === 'active'}>
            Active
          </option>
          <option value="disabled" selected={value.status === 'disabled'}>
            Disabled
          </option>
        </select>
      </div>
      <div class="users-field">
        <label for="users-filter-q">Name or e-mail starts with</label>
        <input id="users-filter-q" name="q" type="search" maxLength={200} defaultValue={value.q ?? ''} />
      </div>
      <button type="submit" class="secondary">
        Filter
      </button>
    </form>
  )
}
