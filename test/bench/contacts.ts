// The CRM contacts benchmark (issue 16): the contacts list and its search (`q`) beside the tickets list,
// CONTACTS contacts and TICKETS tickets in one organization on disk, the compiled binary under load, all
// measured in this one run. T is the tickets bench's A (the reference); L the contacts list; B a page
// token 3/4 deep; S1–S5 searches, from prefixes that match many contacts to ones that match a few.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { compare, printTable, waitFor, type LoadResult, type Target } from './load.ts'
import { seedContacts, seededContact } from './seed-contacts.ts'
import { bootstrapBench, deepPageToken, raiseLimits, signIn } from './bootstrap.ts'
import { seedTickets } from './seed-tickets.ts'
import { TICKETS } from './tickets.ts'

export const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200_000)
const DEPTH = Math.floor(CONTACTS * 0.75)

export interface ContactsBench {
  /** T, L, B, then the searches S1–S5. */
  rows: LoadResult[]
  /** Contacts each search's first page found (up to 20). */
  found: number[]
  seedSeconds: { tickets: number; contacts: number }
}

// Seeded contact `FEW` is the one a search by its whole e-mail finds; its full name is shared by 1 in 1,600.
// S1–S3 match thousands: they walk the list's sort index and meet 20 matches within a few hundred rows.
// S4 and S5 match at most 200 (searchCandidates in the contacts store): those are looked up by id
// through the name and e-mail indexes (before that, S4 read ~32,000 rows and S5 all of them).
const FEW = Math.floor(CONTACTS / 2) - (Math.floor(CONTACTS / 2) % 10)
const SEARCHES: Array<[string, string]> = [
  ['S1 q=mar (name prefix)', 'mar'],
  ['S2 q=maria. (e-mail prefix)', 'maria.'],
  ['S3 q=+4420 (phone prefix)', '+4420'],
  [`S4 q=${seededContact(FEW).name} (full name)`, seededContact(FEW).name],
  ['S5 q=<one whole e-mail>', seededContact(FEW).email!],
]

export async function benchContacts(): Promise<ContactsBench> {
  const dir = tempDir('switchboard-bench-contacts-')
  let app: Bun.Subprocess | undefined
  try {
    const setup = await bootstrapBench(dir)
    const { binary, dbPath, orgId, admin, env } = setup
    let started = performance.now()
    seedTickets(dbPath, orgId, TICKETS, Date.now() - TICKETS * 500)
    const ticketsSeconds = (performance.now() - started) / 1000
    started = performance.now()
    seedContacts(dbPath, orgId, CONTACTS, Date.now() - CONTACTS * 500)
    const contactsSeconds = (performance.now() - started) / 1000
    raiseLimits(setup)

    const port = freePort()
    const base = `http://127.0.0.1:${port}`
    // The access log goes to a file, as under a process manager (as in the tickets bench).
    app = Bun.spawn([binary, 'serve'], {
      env: { ...env, PORT: String(port), PUBLIC_URL: base },
      stdout: Bun.file(join(dir, 'server.log')),
      stderr: 'inherit',
    })
    await waitFor(`${base}/health`)
    const headers = await signIn(base, admin)
    const deep = deepPageToken(dbPath, orgId, 'contacts', DEPTH)

    const contactsUrl = (params: Record<string, string>) => `${base}/api/v1/contacts?${new URLSearchParams({ page_size: '20', ...params })}`
    const targets: Target[] = [
      { label: 'T  GET /api/v1/tickets?page_size=20', url: `${base}/api/v1/tickets?page_size=20`, headers },
      { label: 'L  GET /api/v1/contacts?page_size=20', url: contactsUrl({}), headers },
      { label: `B  L, page_token ${DEPTH.toLocaleString('en')} deep`, url: contactsUrl({ page_token: deep.token }), headers },
      ...SEARCHES.map(([label, q]) => ({ label, url: contactsUrl({ q }), headers })),
    ]
    // Every target answers 200 with a page (a refused or empty answer would be measured as a fast one).
    const found: number[] = []
    for (const [i, target] of targets.entries()) {
      const response = await fetch(target.url, { headers })
      if (response.status !== 200) throw new Error(`${target.label} answered ${response.status}: ${await response.text()}`)
      const body = (await response.json()) as { tickets?: unknown[]; contacts?: Array<{ created_at: string }> }
      const items = body.tickets ?? body.contacts ?? []
      if (items.length === 0) throw new Error(`${target.label} found nothing`)
      if (i >= 3) found.push(items.length)
      if (i === 2 && Date.parse(body.contacts![0]!.created_at) > deep.createdAt) throw new Error('the deep page token did not land deep')
    }
    if (found.at(-1) !== 1) throw new Error(`the search by one e-mail found ${found.at(-1)} contacts`)

    const rows = await compare(targets)
    return { rows, found, seedSeconds: { tickets: ticketsSeconds, contacts: contactsSeconds } }
  } finally {
    app?.kill('SIGTERM')
    await app?.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The figures as `bun run bench` prints them (targets printed, never asserted). */
export function printContactsBench({ rows, found, seedSeconds }: ContactsBench): void {
  printTable(rows)
  const [t, l, b, ...searches] = rows
  const ratio = (x: LoadResult) => (x.rps / t!.rps).toFixed(2)
  process.stdout.write(
    `  seeded in ${seedSeconds.tickets.toFixed(1)} s (tickets) + ${seedSeconds.contacts.toFixed(1)} s (contacts)\n` +
      `  L/T = ${ratio(l!)} (target >= 0.9)   B/L = ${(b!.rps / l!.rps).toFixed(2)} (target >= 0.9)\n` +
      `  S/T = ${searches.map((s, i) => `S${i + 1} ${ratio(s)} (${found[i]} found)`).join('   ')} (target >= 0.5 each)\n`,
  )
  // wrk counts an answer slower than its 2 s timeout as an error and keeps no latency for it.
  const late = rows.filter((r) => r.errors > 0 && (r.p50 === 0 || r.p99 > 1000)).map((r) => r.label.split(' ')[0])
  if (late.length > 0)
    process.stdout.write(`  ${late.join(', ')}: errors are answers later than wrk's 2 s timeout (no latency kept for them)\n`)
}

if (import.meta.main) printContactsBench(await benchContacts())
