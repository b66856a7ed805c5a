// The contacts list: GET /api/v1/contacts with the search (`q`, a prefix of the name, e-mail, phone or
// external id), filters and sort of the URL query, a page at a time by the API's cursor.
import type { paths } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { useLocation } from '../../router.ts'
import { ErrorNote, Page, useCan, useLoad, When } from '../../ui.tsx'
import { Pager, queryOf, startOfDay, Tags, useUserName, useUsers } from '../tickets/shared.tsx'
import { AccountNote, ContactFilters } from './filters.tsx'
import { TYPE_LABELS } from './labels.ts'

type ContactQuery = NonNullable<paths['/api/v1/contacts']['get']['parameters']['query']>

const FILTERS = ['q', 'contact_type', 'tag', 'blocked', 'owner_id', 'account_id', 'created_after', 'created_before', 'sort', 'page_token']

function contactQuery(filters: Record<string, string>): ContactQuery {
  const { blocked } = filters
  return {
    q: filters.q,
    contact_type: filters.contact_type as ContactQuery['contact_type'],
    tag: filters.tag,
    // Anything else than yes or no is sent as is, for the API to name.
    blocked: (blocked === 'true' ? true : blocked === 'false' ? false : blocked) as boolean | undefined,
    owner_id: filters.owner_id,
    account_id: filters.account_id,
    created_after: startOfDay(filters.created_after),
    created_before: startOfDay(filters.created_before),
    sort: filters.sort as ContactQuery['sort'],
    page_token: filters.page_token,
    include_total: true,
  }
}

export function ContactList() {
  const { query } = useLocation()
  const filters = queryOf(query, FILTERS)
  const key = JSON.stringify(filters)
  const users = useUsers()
  const name = useUserName(users)
  const canCreate = useCan('contact:create')
  const list = useLoad(() => api().GET('/api/v1/contacts', { params: { query: contactQuery(filters) } }), [key])
  const total = list.data?.total_count
  return (
    <Page title="Contacts">
      {canCreate && (
        <p class="actions">
          <a class="tickets-button" href="/app/contacts/new">
            New contact
          </a>
        </p>
      )}
      <ContactFilters key={key} filters={filters} users={users} />
      {filters.account_id && <AccountNote id={filters.account_id} />}
      <p role="status" class="muted">
        {list.loading ? 'Loading…' : total === undefined ? '' : `${total} ${total === 1 ? 'contact matches' : 'contacts match'}.`}
      </p>
      <ErrorNote error={list.error} />
      {list.data && list.data.contacts.length === 0 && <p>No contacts match.</p>}
      {list.data && list.data.contacts.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="tickets-caption">Contacts</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Phone</th>
                <th scope="col">Type</th>
                <th scope="col">Tags</th>
                <th scope="col">Owner</th>
                <th scope="col">Last activity</th>
              </tr>
            </thead>
            <tbody>
              {list.data.contacts.map((contact) => (
                <tr>
                  <td>
                    <a href={`/app/contacts/${contact.id}`}>{contact.name}</a>
                    {contact.blocked && <span class="tickets-status contacts-blocked">Blocked</span>}
                  </td>
                  <td>{contact.email ?? <span class="muted">none</span>}</td>
                  <td>{contact.phone ?? <span class="muted">none</span>}</td>
                  <td>{TYPE_LABELS[contact.contact_type]}</td>
                  <td>
                    <Tags tags={contact.tags} />
                  </td>
                  <td>{name(contact.owner_id)}</td>
                  <td>
                    <When at={contact.last_activity_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager path="/contacts" filters={filters} next={list.data.next_page_token} label="Pages of contacts" />}
    </Page>
  )
}
