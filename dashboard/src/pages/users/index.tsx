// Users and roles: the organization's users filtered by role, status and name or e-mail, a page at a time
// (the API's cursor); creating a user, changing a role, disabling and enabling, for roles allowed to.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../../api.ts'
import type { ScreenProps } from '../../screens.ts'
import { ErrorNote, Page, useCan, useLoad, useMe } from '../../ui.tsx'
import { CreateUser } from './create.tsx'
import { coversRole, ROLES, type UserItem } from './roles.ts'
import { type Filters, UserFilters } from './filters.tsx'
import { UserRow } from './row.tsx'

const PAGE_SIZE = 25

interface Listing {
  users: UserItem[]
  next?: string
  total?: number
  error?: unknown
  loading: boolean
}

export function Users(_: ScreenProps) {
  const me = useMe()
  const can = { create: useCan('user:create'), update: useCan('user:update'), delete: useCan('user:delete'), assign: useCan('role:assign') }
  const roles = useLoad(() => api().GET('/api/v1/roles'))
  // The organization's active Super Admins, two at most: when there is one, the API refuses to demote or disable it.
  const owners = useLoad(() => api().GET('/api/v1/users', { params: { query: { role: 'super_admin', status: 'active', page_size: 2 } } }))
  const only = owners.data?.users.length === 1 ? owners.data.users[0]!.id : undefined
  const [filters, setFilters] = useState<Filters>({})
  const [list, setList] = useState<Listing>({ users: [], loading: true })
  const [creating, setCreating] = useState(false)
  const [notice, setNotice] = useState('')
  const latest = useRef(0)
  async function load(page_token?: string) {
    // Only the last request counts: an answer for filters since changed is dropped.
    const request = ++latest.current
    setList((previous) => ({ ...previous, loading: true }))
    const query = { ...filters, page_size: PAGE_SIZE, include_total: true, ...(page_token ? { page_token } : {}) }
    const { data, error } = await api().GET('/api/v1/users', { params: { query } })
    if (request !== latest.current) return
    setList((previous) => ({
      users: data ? [...(page_token ? previous.users : []), ...data.users] : previous.users,
      next: data?.next_page_token ?? undefined,
      total: data?.total_count ?? previous.total,
      error,
      loading: false,
    }))
  }
  useEffect(() => void load(), [filters])
  const assignable = ROLES.filter((role) => coversRole(me.permissions, role, roles.data?.roles))
  function changed(user: UserItem) {
    setList((previous) => ({ ...previous, users: previous.users.map((u) => (u.id === user.id ? user : u)) }))
    owners.reload()
  }
  return (
    <Page title="Users and roles" intro="The people of your organization, what each may do, and who may sign in.">
      {can.create && !creating && (
        <div class="actions">
          <button type="button" onClick={() => setCreating(true)}>
            New user
          </button>
        </div>
      )}
      {creating && (
        <CreateUser
          roles={assignable}
          onCancel={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false)
            setNotice(`${user.name} was created as ${user.role.replace('_', ' ')}.`)
            void load()
          }}
        />
      )}
      <p role="status" class="ok">
        {notice}
      </p>
      <UserFilters value={filters} onChange={setFilters} />
      <h2 id="users-list">Users</h2>
      <ErrorNote error={list.error} />
      {list.total !== undefined && <p class="muted">{list.total === 1 ? '1 user matches.' : `${list.total} users match.`}</p>}
      {list.users.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways on a narrow screen must be reachable by keyboard (WCAG 2.1.1)
        <section class="table-wrap" aria-labelledby="users-list" tabIndex={0}>
          <table class="users-table" aria-labelledby="users-list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                {(can.update || can.delete) && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {list.users.map((user) => {
                const manage = coversRole(me.permissions, user.role, roles.data?.roles)
                const rights = {
                  changeRole: can.update && can.assign && manage,
                  disable: can.delete && manage,
                  enable: can.update && manage,
                  actions: can.update || can.delete,
                  roles: assignable,
                }
                return (
                  <UserRow
                    key={user.id}
                    user={user}
                    self={user.id === me.id}
                    only={user.id === only}
                    rights={rights}
                    onChanged={changed}
                    onRefused={owners.reload}
                  />
                )
              })}
            </tbody>
          </table>
        </section>
      )}
      {!list.loading && !list.error && list.users.length === 0 && <p>No user matches these filters.</p>}
      {list.loading && <p class="muted">Loading…</p>}
      {list.next && !list.loading && (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => load(list.next)}>
            Show more users
          </button>
        </div>
      )}
    </Page>
  )
}
