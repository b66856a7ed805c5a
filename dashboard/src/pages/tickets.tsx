// The Tickets screen: the list at /app/tickets, the "New ticket" form at /app/tickets/new, and one
// ticket at /app/tickets/<id> (the pieces are in ./tickets/).
import type { ScreenProps } from '../screens.ts'
import { TicketDetail } from './tickets/detail.tsx'
import { TicketList } from './tickets/list.tsx'
import { NewTicket } from './tickets/new.tsx'

export function Tickets({ rest }: ScreenProps) {
  const id = decodeURIComponent(rest.replace(/^\/+|\/+$/g, ''))
  if (id === '') return <TicketList />
  if (id === 'new') return <NewTicket />
  return <TicketDetail key={id} id={id} />
}
