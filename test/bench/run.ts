// `bun run bench`: every benchmark, each printing figures measured in this one run (never asserted by tests).
import { CONNECTIONS, DURATION_S, GENERATOR, ROUNDS, printTable } from './load.ts'
import { benchDeepBody, printDeepBodyBench } from './deep-body.ts'
import { benchLogin } from './login.ts'
import { benchPlatform } from './platform.ts'
import { benchRateLimiter } from './rate-limiter.ts'
import { benchRateLimitOverhead } from './rate-limit-overhead.ts'
import { benchWebhooks, printWebhookBench } from './webhooks.ts'
import { benchTickets, TICKETS } from './tickets.ts'
import { benchContacts, CONTACTS, printContactsBench } from './contacts.ts'
import { runClusterBench } from './cluster.ts'
import { runClusterLatencyBench } from './cluster-latency.ts'
import { benchVersusMain, printVersusMain, VERSUS_HEADER } from './versus-main.ts'
import { runWriteCapacityBench } from './write-capacity.ts'
import { runReportsBench } from './reports.ts'
import { benchRequestLayers, printRequestLayers } from './request-layers.ts'
import { benchRequestPath, printRequestPath } from './request-path.ts'

process.stdout.write(
  `Switchboard benchmarks: ${GENERATOR}, ${CONNECTIONS} connections, ${DURATION_S} s per measurement, median of ${ROUNDS} alternating rounds, bun ${Bun.version}\n\n`,
)

process.stdout.write('Platform: GET /health\n')
const platform = await benchPlatform()
printTable(platform.rows)
process.stdout.write(`  ratio A/D (full stack vs runtime ceiling) = ${platform.ratio.toFixed(2)}\n`)

process.stdout.write('\nLogin timing (medians of interleaved sequential logins, in-process)\n')
const login = await benchLogin()
process.stdout.write(
  `  wrong password ${login.wrongPasswordMs.toFixed(1)} ms   unknown e-mail ${login.unknownEmailMs.toFixed(1)} ms   success ${login.successMs.toFixed(1)} ms\n`,
)
process.stdout.write(
  `  ratio unknown e-mail / wrong password = ${(login.unknownEmailMs / login.wrongPasswordMs).toFixed(2)} (1.00 = indistinguishable)\n`,
)

process.stdout.write('\nDeep bodies: sign-in on the compiled binary, sequential requests\n')
printDeepBodyBench(await benchDeepBody())

process.stdout.write(`\nTickets list: ${TICKETS.toLocaleString('en')} tickets in one organization, on disk\n`)
const tickets = await benchTickets()
printTable(tickets.rows)
const [a, b, c, , e] = tickets.rows
process.stdout.write(`  seeded in ${tickets.seedSeconds.toFixed(1)} s\n`)
process.stdout.write(`  A/C = ${(a!.rps / c!.rps).toFixed(2)} (target >= 0.8)   B/A = ${(b!.rps / a!.rps).toFixed(2)} (target >= 0.9)\n`)
const { limited, unlimited } = tickets.overhead
process.stdout.write(
  `  rate limits on vs off, measured again alone (${limited.rps} vs ${unlimited.rps} req/s): overhead 1 - A'/E' = ${((1 - limited.rps / unlimited.rps) * 100).toFixed(1)}% (target < 5%; in the table above 1 - A/E = ${((1 - a!.rps / e!.rps) * 100).toFixed(1)}%)\n`,
)

process.stdout.write(
  `\nContacts list and search: ${CONTACTS.toLocaleString('en')} contacts beside ${TICKETS.toLocaleString('en')} tickets in one organization, on disk\n`,
)
printContactsBench(await benchContacts())

process.stdout.write('\nRate limiter, in-process (one authenticated request: user, organization, minute and day windows)\n')
const limiter = benchRateLimiter()
process.stdout.write(
  `  ${limiter.nsPerRequest.toFixed(0)} ns a request over ${limiter.users.toLocaleString('en')} users; ${limiter.nsPerRefusal.toFixed(0)} ns a refusal\n`,
)

process.stdout.write('\nRate limits on vs off, tickets list in-process (no sockets; medians of alternating rounds)\n')
const inProcess = await benchRateLimitOverhead()
process.stdout.write(
  `  on ${inProcess.onUs.toFixed(1)} µs   off ${inProcess.offUs.toFixed(1)} µs a request: overhead ${(((inProcess.onUs - inProcess.offUs) / inProcess.offUs) * 100).toFixed(1)}% (target < 5%)\n`,
)

process.stdout.write('\nWebhook delivery: tickets created through the API, each event to 4 webhooks on a local HTTPS receiver\n')
const webhooks = await benchWebhooks()
printWebhookBench(webhooks)

// The backlog ratio of this tree was measured just above: the comparison reuses it rather than measure it twice.
process.stdout.write(`\n${VERSUS_HEADER}\n`)
printVersusMain(await benchVersusMain({ webhooks: false }), webhooks)

// Issue 14: PostgreSQL + Redis with one and two instances, as ratios of SQLite's figures; skipped (and said so) without the servers.
process.stdout.write('\n')
await runClusterBench()

// Issue 27 item 10: the cross-instance latencies the tests no longer time; skipped (and said so) without the servers.
process.stdout.write('\n')
await runClusterLatencyBench()

// Issue 28: write capacity with PostgreSQL across a network (a delaying proxy), one and two instances; skipped without the servers.
process.stdout.write('\n')
await runWriteCapacityBench()

// Issue 32: the request path — three reads against their essential work on both engines, and the list layer by layer.
process.stdout.write('\nRequest path: list, ticket by id and /me against their essential work (A/C)\n')
printRequestPath(await benchRequestPath())
process.stdout.write('\nRequest path, layer by layer (in process, SQLite, µs per request)\n')
printRequestLayers(await benchRequestLayers())

// Reports at scale: REPORTS_BENCH_TICKETS tickets (1,000,000) and the rest of two years generated as rows and events, folded,
// then summary / time series / live against plain SQL, and ticket creation against the tree before reports; PostgreSQL skipped without it.
process.stdout.write('\n')
await runReportsBench()
