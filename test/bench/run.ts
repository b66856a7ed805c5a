// `bun run bench`: every benchmark, each printing figures measured in this one run (never asserted by tests).
import { CONNECTIONS, DURATION_S, ROUNDS, printTable } from './load.ts'
import { benchPlatform } from './platform.ts'

process.stdout.write(`Switchboard benchmarks: ${CONNECTIONS} connections, ${DURATION_S} s per measurement, median of ${ROUNDS} alternating rounds, bun ${Bun.version}\n\n`)

process.stdout.write('Platform: GET /health\n')
const platform = await benchPlatform()
printTable(platform.rows)
process.stdout.write(`  ratio A/D (full stack vs runtime ceiling) = ${platform.ratio.toFixed(2)}\n`)
