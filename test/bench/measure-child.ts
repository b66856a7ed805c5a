// Bench helper process: one load.ts measurement of the target in TARGET (JSON), with the BENCH_CONNECTIONS
// and BENCH_DURATION of its own environment; prints the result as JSON. cluster.ts starts two at once,
// one per instance, each with half the connections (wrk cannot spread one run over two hosts).
import { measure, type Target } from './load.ts'

const target = JSON.parse(process.env.TARGET!) as Target
const result = await measure(target.label, target.url, target.headers, { method: target.method, body: target.body })
process.stdout.write(JSON.stringify(result) + '\n')
