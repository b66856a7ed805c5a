// Example: `SWITCHBOARD_URL=… SWITCHBOARD_TOKEN=… bun clients/typescript/example.ts` (typechecked with the repository).
import { type ApiError, createSwitchboardClient, type Schemas } from './src/index.ts'

const client = createSwitchboardClient({
  baseUrl: process.env.SWITCHBOARD_URL ?? 'http://localhost:3000',
  token: process.env.SWITCHBOARD_TOKEN ?? '',
})

/** Throws the API's error body as a readable message (a 429 says when to retry). */
function fail(error: ApiError): never {
  if ('retry_after' in error) throw new Error(`${error.error}: ${error.message} (retry in ${error.retry_after} s)`)
  throw new Error(`${error.code}: ${error.message} (request ${error.request_id})`)
}

const me = await client.GET('/api/v1/me')
if (me.error) fail(me.error)
console.log(`signed in as ${me.data.email} (${me.data.role})`)

const created = await client.POST('/api/v1/tickets', {
  body: { subject: 'Printer on the 3rd floor is out of toner', priority: 'high', tags: ['hardware'] },
})
if (created.error) fail(created.error)
console.log(`created ticket #${created.data.number} (${created.data.id})`)

// Every open ticket, 50 a page: the next page's token is "" on the last page.
const open: Schemas['Ticket'][] = []
let pageToken: string | undefined
do {
  const page = await client.GET('/api/v1/tickets', { params: { query: { status: 'open', page_size: 50, page_token: pageToken } } })
  if (page.error) fail(page.error)
  open.push(...page.data.tickets)
  pageToken = page.data.next_page_token || undefined
} while (pageToken)
console.log(`${open.length} open tickets`)
