// `bun run bench`: every benchmark, each printing figures measured in this one run (never asserted by tests).
import { CONNECTIONS, DURATION_S, ROUNDS, printTable } from './load.ts'
import { benchLogin } from './login.ts'
import { benchPlatform } from './platform.ts'
import { benchTickets, TICKETS } from './tickets.ts'

process.stdout.write(`Switchboard benchmarks: ${CONNECTIONS} connections, ${DURATION_S} s per measurement, median of ${ROUNDS} alternating rounds, bun ${Bun.version}\n\n`)

process.stdout.write('Platform: GET /health\n')
const platform = await benchPlatform()
printTable(platform.rows)
process.stdout.write(`  ratio A/D (full stack vs runtime ceiling) = ${platform.ratio.toFixed(2)}\n`)

process.stdout.write('\nLogin timing (medians of interleaved sequential logins, in-process)\n')
const login = await benchLogin()
process.stdout.write(`  wrong password ${login.wrongPasswordMs.toFixed(1)} ms   unknown e-mail ${login.unknownEmailMs.toFixed(1)} ms   success ${login.successMs.toFixed(1)} ms\n`)
process.stdout.write(`  ratio unknown e-mail / wrong password = ${(login.unknownEmailMs / login.wrongPasswordMs).toFixed(2)} (1.00 = indistinguishable)\n`)

process.stdout.write(`\nTickets list: ${TICKETS.toLocaleString('en')} tickets in one organization, on disk\n`)
const tickets = await benchTickets()
printTable(tickets.rows)
const [a, b, c] = tickets.rows
process.stdout.write(`  seeded in ${tickets.seedSeconds.toFixed(1)} s\n`)
process.stdout.write(`  A/C = ${(a!.rps / c!.rps).toFixed(2)} (target >= 0.8)   B/A = ${(b!.rps / a!.rps).toFixed(2)} (target >= 0.9)\n`)
