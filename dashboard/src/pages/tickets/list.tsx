// The tickets list: GET /api/v1/tickets with the filters and sort of the URL query, a page at a time by
// the API's cursor; the table is also the contact page's list of a contact's tickets.
import type { paths } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { useLocation } from '../../router.ts'
import { ErrorNote, Page, useCan, useLoad, When } from '../../ui.tsx'
import { TICKET_FILTERS, TicketFilters } from './filters.tsx'
import { PRIORITY_LABELS, STATUS_LABELS, type Ticket } from './labels.ts'
import { Pager, queryOf, startOfDay, type User, useUserName, useUsers } from './shared.tsx'

type TicketQuery = NonNullable<paths['/api/v1/tickets']['get']['parameters']['query']>

/** The API's query for the URL's filters (a value the API does not know is sent as is: it names it). */
function ticketQuery(filters: Record<string, string>): TicketQuery {
  return {
    status: filters.status as TicketQuery['status'],
    priority: filters.priority as TicketQuery['priority'],
    assignee_id: filters.assignee_id,
    contact_id: filters.contact_id,
    tag: filters.tag,
    created_after: startOfDay(filters.created_after),
    created_before: startOfDay(filters.created_before),
    sort: filters.sort as TicketQuery['sort'],
    page_token: filters.page_token,
    include_total: true,
  }
}

export function TicketList() {
  const { query } = useLocation()
  const filters = queryOf(query, [...TICKET_FILTERS, 'page_token'])
  const key = JSON.stringify(filters)
  const users = useUsers()
  const canCreate = useCan('ticket:create')
  const list = useLoad(() => api().GET('/api/v1/tickets', { params: { query: ticketQuery(filters) } }), [key])
  const total = list.data?.total_count
  return (
    <Page title="Tickets">
      {canCreate && (
        <p class="actions">
          <a class="tickets-button" href="/app/tickets/new">
            New ticket
          </a>
        </p>
      )}
      <TicketFilters key={key} filters={filters} users={users} />
      {filters.contact_id && (
        <p>
          Only the tickets of <a href={`/app/contacts/${filters.contact_id}`}>one contact</a>.
        </p>
      )}
      <p role="status" class="muted">
        {list.loading ? 'Loading…' : total === undefined ? '' : `${total} ${total === 1 ? 'ticket matches' : 'tickets match'}.`}
      </p>
      <ErrorNote error={list.error} />
      {list.data && (
        <>
          <TicketTable tickets={list.data.tickets} users={users} sort={filters.sort} caption="Tickets" />
          <Pager path="/tickets" filters={filters} next={list.data.next_page_token} label="Pages of tickets" />
        </>
      )}
    </Page>
  )
}

const SORTED_COLUMNS: Record<string, string> = { number: '#', priority: 'Priority', created_at: 'Created', updated_at: 'Updated' }

export function TicketTable(props: { tickets: Ticket[]; users: User[]; sort?: string; caption: string; empty?: string }) {
  const { tickets, users, sort, caption } = props
  const name = useUserName(users)
  const [field, direction] = (sort || 'created_at:desc').split(':')
  const header = (label: string) => {
    const sorted = SORTED_COLUMNS[field!] === label
    return (
      <th scope="col" aria-sort={sorted ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}>
        {label}
      </th>
    )
  }
  if (tickets.length === 0) return <p>{props.empty ?? 'No tickets match.'}</p>
  return (
    <div class="table-wrap">
      <table>
        <caption class="tickets-caption">{caption}</caption>
        <thead>
          <tr>
            {header('#')}
            {header('Subject')}
            {header('Status')}
            {header('Priority')}
            {header('Assignee')}
            {header('Requester')}
            {header('Created')}
            {header('Updated')}
          </tr>
        </thead>
        <tbody>
          {tickets.map((ticket) => (
            <tr>
              <td>{ticket.number}</td>
              <td class="tickets-subject">
                <a href={`/app/tickets/${ticket.id}`}>{ticket.subject}</a>
              </td>
              <td>
                <span class="tickets-status">{STATUS_LABELS[ticket.status]}</span>
              </td>
              <td>{PRIORITY_LABELS[ticket.priority]}</td>
              <td>{name(ticket.assignee_id)}</td>
              <td>{ticket.requester?.name ?? <span class="muted">none</span>}</td>
              <td>
                <When at={ticket.created_at} />
              </td>
              <td>
                <When at={ticket.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
