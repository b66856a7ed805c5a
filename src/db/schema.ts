// Every drizzle table of the application, in one place: the entry drizzle-kit generates migrations from.
export { systemKv } from './kv.ts'
export { organizations } from '../modules/organizations/table.ts'
export { users } from '../modules/users/table.ts'
export { sessions, refreshTokens, revokedTokens } from '../modules/auth/table.ts'
export { signingKeys } from '../modules/keys/table.ts'
export { events } from '../modules/events/table.ts'
export { tickets, ticketCounters, ticketTags, ticketComments } from '../modules/tickets/table.ts'
